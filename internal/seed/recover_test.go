package seed

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// versionedSeed returns the path of a valid seed committed in its repository.
func versionedSeed(tb testing.TB) string {
	tb.Helper()
	path := seedFile(tb, fixture(tb, "valid-seed.json"))
	if res, err := LoadWithGit(path, nil); err != nil || len(gitLog(tb, filepath.Dir(path))) != 1 {
		tb.Fatalf("LoadWithGit = %+v", res)
	}
	return path
}

// git runs git in dir and returns its output.
func git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// learn adds an insight with Update, failing the test on error.
func learn(tb testing.TB, path, content string) []string {
	tb.Helper()
	_, warnings, err := Update(path, nil, CategoryLearn, func(s *Seed) (string, error) {
		l, err := AddLearning(s, TypeInsight, content, "2026-02-01T10:00:00.000Z")
		return "added insight " + l.Content, err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return warnings
}

// assertOwnCommits checks that HEAD holds only the change adding want and
// that HEAD~1 is a Recover: commit holding orphan.
func assertOwnCommits(tb testing.TB, dir, want, orphan string) {
	tb.Helper()
	log := gitLog(tb, dir)
	if len(log) < 3 || !strings.HasPrefix(log[0], "Learn: added insight "+want) || !strings.HasPrefix(log[1], CategoryRecover+": ") {
		tb.Fatalf("log = %q, want Learn: on top of Recover:", log)
	}
	head := git(tb, dir, "show", "--format=", "HEAD")
	if !strings.Contains(head, want) || strings.Contains(head, orphan) {
		tb.Errorf("the write's commit holds more than its own change:\n%s", head)
	}
	if prev := git(tb, dir, "show", "--format=", "HEAD~1"); !strings.Contains(prev, orphan) {
		tb.Errorf("Recover: commit lacks the orphaned change:\n%s", prev)
	}
}

func TestWriteAfterUncommittedChangeCommitsItSeparately(t *testing.T) {
	for _, staged := range []bool{false, true} {
		name := map[bool]string{false: "renamed, not committed", true: "staged, not committed"}[staged]
		t.Run(name, func(t *testing.T) {
			path := versionedSeed(t)
			dir := filepath.Dir(path)
			s := mustLoad(t, path)
			if _, err := AddLearning(s, TypePattern, "Orphaned pattern", "2026-02-01T09:00:00.000Z"); err != nil {
				t.Fatal(err)
			}
			if err := Write(path, s); err != nil { // what a write killed before its commit leaves
				t.Fatal(err)
			}
			if staged { // killed between git add and git commit
				git(t, dir, "add", "seed.json")
			}
			warnings := learn(t, path, "Next insight")
			assertOwnCommits(t, dir, "Next insight", "Orphaned pattern")
			if !strings.Contains(strings.Join(warnings, "\n"), "committed an uncommitted seed change on its own") {
				t.Errorf("warnings = %q, want the recovery said", warnings)
			}
			if out := git(t, dir, "status", "--porcelain"); out != "" {
				t.Errorf("working tree not clean after the write:\n%s", out)
			}
		})
	}
}

func TestWriteCleansTempFilesAndStaleGitLock(t *testing.T) {
	path := versionedSeed(t)
	dir := filepath.Dir(path)
	stale := []string{".seed.json.123.tmp", ".seed.schema.json.456.tmp", ".seed.json.corrupted.789.tmp"}
	kept := []string{".other.json.1.tmp", "seed.json.lock.tmp", "notes.txt"}
	testenv.WriteFiles(t, dir, "left by a killed process", append(append([]string{}, stale...), kept...)...)
	if err := os.WriteFile(filepath.Join(dir, ".git", "index.lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	warnings := strings.Join(learn(t, path, "After the crash"), "\n")
	testenv.CheckRemoved(t, dir, stale, kept)
	if log := gitLog(t, dir); len(log) != 2 || !strings.HasPrefix(log[0], "Learn: added insight After the crash") {
		t.Errorf("log = %q, want the write committed despite the stale git lock", log)
	}
	for _, w := range []string{"removed 3 temp file(s)", "removed a stale .git/index.lock"} {
		if !strings.Contains(warnings, w) {
			t.Errorf("warnings = %q, want %q", warnings, w)
		}
	}
}

func TestWritesRefuseAnInvalidSeed(t *testing.T) {
	path := versionedSeed(t)
	dir := filepath.Dir(path)
	invalid := fixture(t, "invalid-values-seed.json")
	if err := os.WriteFile(path, invalid, 0o600); err != nil { // the user's edit, uncommitted
		t.Fatal(err)
	}
	head := git(t, dir, "rev-parse", "HEAD")
	if _, err := os.Create(path + ".lock.tmp"); err != nil { // the (empty) lock file may stay
		t.Fatal(err)
	}
	before := testenv.Snapshot(t, dir)
	called := false
	_, _, err := Update(path, nil, CategoryLearn, func(*Seed) (string, error) { called = true; return "x", nil })
	var le *LoadError
	if !errors.As(err, &le) || le.Code != CodeValidation || !strings.Contains(err.Error(), "run `paige seed check`, then `paige seed repair`") || called {
		t.Fatalf("Update = %v (change called %v), want a refusal", err, called)
	}
	if _, err := RunSetup(path, Answers{PrincipalName: "Bob"}, "", nil); !errors.As(err, &le) {
		t.Fatalf("RunSetup = %v, want a refusal", err)
	}
	if _, err := AddProposals(path, []Proposal{{Type: TypeInsight, Content: "x", Source: "s"}}, nil); err == nil {
		t.Fatal("AddProposals wrote to an invalid seed")
	}
	testenv.AssertUnchanged(t, dir, before)
	if got := git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved from %s to %s", head, got)
	}
	if n := len(gitLog(t, dir)); n != 1 {
		t.Errorf("%d commits, want the Init only (the invalid edit is neither committed nor discarded)", n)
	}
}

func TestWritesRefuseADeletedSeedWithHistory(t *testing.T) {
	path := versionedSeed(t)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	_, _, err := Update(path, nil, CategoryLearn, func(*Seed) (string, error) { return "x", nil })
	if !errors.Is(err, ErrSeedDeleted) {
		t.Fatalf("Update = %v, want ErrSeedDeleted", err)
	}
	if _, err := RunSetup(path, Answers{PrincipalName: "Bob"}, "", nil); !errors.Is(err, ErrSeedDeleted) {
		t.Fatalf("RunSetup = %v, want ErrSeedDeleted", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a default seed was created over the deleted one")
	}
	rep, err := Repair(path, nil)
	if err != nil || rep.RestoredFrom == "" {
		t.Fatalf("Repair = %+v, %v", rep, err)
	}
	if s := mustLoad(t, path); s.Identity.AIName != "Ivy" {
		t.Errorf("restored identity = %+v", s.Identity)
	}
	learn(t, path, "Works again")
}

func TestRepairKeepsValidValuesAndABackup(t *testing.T) {
	path := versionedSeed(t)
	dir := filepath.Dir(path)
	invalid := fixture(t, "invalid-values-seed.json")
	if err := os.WriteFile(path, invalid, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := Repair(path, nil)
	if err != nil || len(rep.Problems) != len(wantInvalidValues) || rep.Backup != path+".corrupted" || rep.RestoredFrom != "" {
		t.Fatalf("Repair = %+v, %v", rep, err)
	}
	if !bytes.Equal(testenv.ReadFile(t, rep.Backup), invalid) {
		t.Error("backup differs from the file before the repair")
	}
	s := mustLoad(t, path)
	salvaged, _, _ := ReadOnly(rep.Backup)
	got, _ := Encode(s)
	want, _ := Encode(salvaged)
	if !bytes.Equal(got, want) {
		t.Errorf("repaired seed differs from what ReadOnly presents:\n%s\nwant:\n%s", got, want)
	}
	if log := gitLog(t, dir); len(log) != 2 || log[0] != "Repair: fixed 8 invalid values, kept every valid value\n\n"+CommitTrailer {
		t.Errorf("log = %q", log)
	}
	if want := "fixed 8 invalid values, kept every valid value (the previous file is kept at " + path + ".corrupted)"; rep.Summary() != want {
		t.Errorf("summary = %q, want %q", rep.Summary(), want)
	}
	again, err := Repair(path, nil)
	if err != nil || !again.NothingToDo || again.Backup != "" || len(gitLog(t, dir)) != 2 {
		t.Errorf("second Repair = %+v, %v; want nothing done", again, err)
	}
}

func TestRepairRefusesNewerMajor(t *testing.T) {
	newer := []byte(`{"version": "2.0.0", "identity": 1}`)
	path := seedFile(t, newer)
	if _, err := Repair(path, nil); err == nil || !strings.Contains(err.Error(), "requires migration") {
		t.Fatalf("Repair = %v, want a refusal", err)
	}
	if !bytes.Equal(testenv.ReadFile(t, path), newer) {
		t.Error("newer seed was rewritten")
	}
}

// Environment of the helper process of TestKilledWriteIsRecovered.
const (
	envKillPath = "PAIGE_SEED_TEST_KILL_PATH"
	envKillAt   = "PAIGE_SEED_TEST_KILL_AT"
	envKillMark = "PAIGE_SEED_TEST_KILL_MARK"
)

// TestKilledWriteHelper is not a test of its own: run by
// TestKilledWriteIsRecovered as a separate process, it starts a write,
// stops at the point named by envKillAt, says so by creating envKillMark,
// and waits there to be killed.
func TestKilledWriteHelper(t *testing.T) {
	path := os.Getenv(envKillPath)
	if path == "" {
		return // only meaningful as the helper process
	}
	pause := func() {
		if err := os.WriteFile(os.Getenv(envKillMark), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour) // until SIGKILL
	}
	switch os.Getenv(envKillAt) {
	case "before-rename":
		hookBeforeRename = func(target string) {
			if target == path {
				pause()
			}
		}
	case "before-commit":
		hookBeforeCommit = func(string) { pause() }
	case "session-before-rename": // writing the logged session into the seed
		hookBeforeRename = func(target string) {
			if target == path {
				pause()
			}
		}
	case "after-session-commit":
		hookAfterSessionCommit = func(string) { pause() }
	}
	learn(t, path, "Orphaned insight")
	t.Fatal("the write finished; it should have been killed")
}

func TestKilledWriteIsRecovered(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a process")
	}
	for _, at := range []string{"before-commit", "before-rename"} {
		t.Run(at, func(t *testing.T) {
			path := versionedSeed(t)
			dir := filepath.Dir(path)
			killMidWrite(t, path, at)
			tmps, _ := filepath.Glob(filepath.Join(dir, ".seed.json.*.tmp"))
			orphaned := bytes.Contains(testenv.ReadFile(t, path), []byte("Orphaned insight"))
			if at == "before-commit" && (!orphaned || len(tmps) != 0) {
				t.Fatalf("after the kill: seed has the change %v, temp files %v; want the change renamed, uncommitted", orphaned, tmps)
			}
			if at == "before-rename" && (orphaned || len(tmps) != 1) {
				t.Fatalf("after the kill: seed has the change %v, temp files %v; want one temp file only", orphaned, tmps)
			}
			// The killed process held the seed lock; the next write must get it.
			done := make(chan struct{})
			go func() {
				defer close(done)
				learn(t, path, "Next insight")
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("the write after the kill is blocked: the lock of the killed process was not released")
			}
			if at == "before-commit" {
				assertOwnCommits(t, dir, "Next insight", "Orphaned insight")
			} else {
				log := gitLog(t, dir)
				if len(log) != 2 || !strings.HasPrefix(log[0], "Learn: added insight Next insight") || bytes.Contains(testenv.ReadFile(t, path), []byte("Orphaned insight")) {
					t.Errorf("log = %q; the unrenamed write must leave no trace", log)
				}
			}
			if tmps, _ := filepath.Glob(filepath.Join(dir, ".seed.json.*.tmp")); len(tmps) != 0 {
				t.Errorf("temp files left: %v", tmps)
			}
		})
	}
}

// killMidWrite runs TestKilledWriteHelper on path, waits until it stopped at
// at, and kills it with SIGKILL.
func killMidWrite(t *testing.T, path, at string) {
	t.Helper()
	mark := filepath.Join(t.TempDir(), "paused")
	paused := func(string) bool {
		_, err := os.Stat(mark)
		return err == nil
	}
	env := []string{envKillPath + "=" + path, envKillAt + "=" + at, envKillMark + "=" + mark}
	testenv.KillHelper(t, "TestKilledWriteHelper", env, paused, 0)
}
