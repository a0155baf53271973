package testenv

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// RepoRoot returns the module root: the nearest directory at or above the
// test's working directory (its package directory) that holds go.mod.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("module root (go.mod) not found above the test's directory")
		}
		dir = parent
	}
}

// BuildPaige builds cmd/paige (static, CGO_ENABLED=0) into a temporary
// directory of tb and returns the binary's path; a build error fails tb.
// The build may take 10 minutes (a cold cache on a loaded machine).
func BuildPaige(tb testing.TB) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bin := filepath.Join(tb.TempDir(), "paige")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/paige")
	cmd.Dir = RepoRoot(tb)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./cmd/paige: %v\n%s", err, out)
	}
	return bin
}

// SyncBuffer is a bytes.Buffer safe for concurrent writers and readers: a
// subprocess's output that a test reads while the process runs.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Tail returns the last n bytes of s, marked with "…" when cut: the end of
// a long log in a failure message.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
