package seed

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

// TestMain isolates git from the user's and system configuration, so the
// seed repository's own identity handling is what the tests see.
func TestMain(m *testing.M) {
	testenv.IsolateGit()
	os.Exit(m.Run())
}

// fixture returns testdata/name.
func fixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// seedFile writes data to a fresh seed path and returns the path; nil data
// leaves the file missing.
func seedFile(tb testing.TB, data []byte) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "pai", "seed.json")
	if data != nil {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// noGit are options that keep tests away from git.
var noGit = &Options{NoGit: true}

// mustLoad loads path and fails the test unless it is OK.
func mustLoad(tb testing.TB, path string) *Seed {
	tb.Helper()
	res, err := Load(path)
	if err != nil {
		tb.Fatalf("Load(%s): %+v", path, err)
	}
	return res.Seed
}

// gitLog returns the full messages of the seed repository's commits, newest
// first.
func gitLog(tb testing.TB, dir string) []string {
	tb.Helper()
	out, err := exec.Command("git", "-C", dir, "log", "--format=%B%x00").Output()
	if err != nil {
		tb.Fatalf("git log: %v", err)
	}
	var msgs []string
	for _, m := range strings.Split(string(out), "\x00") {
		if m = strings.TrimSpace(m); m != "" {
			msgs = append(msgs, m)
		}
	}
	return msgs
}

func ptr[T any](v T) *T { return &v }

// mustSeed returns the seed of a Load, Peek or LoadWithGit, failing tb on
// its error: mustSeed(t)(Load(path)).
func mustSeed(tb testing.TB) func(Loaded, error) *Seed {
	return func(l Loaded, err error) *Seed {
		tb.Helper()
		if err != nil {
			tb.Fatalf("load seed: %v", err)
		}
		return l.Seed
	}
}

// loadErr is err as a *LoadError, or an empty one when it is not.
func loadErr(err error) *LoadError {
	var le *LoadError
	if errors.As(err, &le) {
		return le
	}
	return &LoadError{}
}
