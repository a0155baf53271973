package seed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// sessionCommits returns the commits of dir that record session starts.
func sessionCommits(tb testing.TB, dir string) []string {
	tb.Helper()
	var out []string
	for _, m := range gitLog(tb, dir) {
		if strings.HasPrefix(m, CategoryUpdate+": ") && strings.Contains(m, " started") {
			out = append(out, strings.SplitN(m, "\n", 2)[0])
		}
	}
	return out
}

// TestRecordSessionCommittedByNextWrite: RecordSession writes the state at
// once and commits nothing; the next write commits every logged session
// (one commit naming them all, below its own) and removes the log.
func TestRecordSessionCommittedByNextWrite(t *testing.T) {
	path := versionedSeed(t)
	dir := filepath.Dir(path)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, id := range []string{"s1", "s2", "s3"} {
		if err := RecordSession(path, id, at.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	st := mustLoad(t, path).State
	if st.LastSessionID != "s3" || st.LastSessionAt != "2026-03-01T09:02:00.000Z" || len(gitLog(t, dir)) != 1 {
		t.Fatalf("after three sessions: state %+v, log %q", st, gitLog(t, dir))
	}
	if n := strings.Count(string(testenv.ReadFile(t, sessionLogPath(path))), "\n"); n != 3 {
		t.Fatalf("session log holds %d lines, want 3", n)
	}
	learn(t, path, "Next insight")
	log := gitLog(t, dir)
	if len(log) != 3 || !strings.HasPrefix(log[0], "Learn: added insight Next insight") || log[1] != "Update: 3 sessions started: s1, s2, s3\n\n"+CommitTrailer {
		t.Errorf("log = %q", log)
	}
	if _, err := os.Stat(sessionLogPath(path)); !os.IsNotExist(err) {
		t.Errorf("session log left after the commit: %v", err)
	}
	if out := git(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("working tree not clean:\n%s", out)
	}
}

// TestRecordSessionRefusesInvalidSeed: an invalid seed is left byte for
// byte as it is and nothing is logged.
func TestRecordSessionRefusesInvalidSeed(t *testing.T) {
	invalid := []byte(`{"version": "1.0.0", "identity": 1}`)
	path := seedFile(t, invalid)
	if err := RecordSession(path, "x", time.Now()); err == nil || !strings.Contains(err.Error(), "left untouched") {
		t.Errorf("RecordSession = %v, want a refusal", err)
	}
	if got := testenv.ReadFile(t, path); string(got) != string(invalid) {
		t.Errorf("seed rewritten: %s", got)
	}
	if _, err := os.Stat(sessionLogPath(path)); !os.IsNotExist(err) {
		t.Errorf("session logged for an invalid seed: %v", err)
	}
}

// TestSessionLogWithoutGit: without git the next write applies the log
// and removes it; a torn last line (a kill mid-append) is skipped.
func TestSessionLogWithoutGit(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	if err := RecordSession(path, "s1", time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(sessionLogPath(path), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"at":"2026-03-01T10:00:00.000Z","i`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, _, err := Update(path, noGit, CategoryLearn, func(*Seed) (string, error) { return "", nil }); err != nil {
		t.Fatal(err)
	}
	if st := mustLoad(t, path).State; st.LastSessionID != "s1" {
		t.Errorf("state %+v", st)
	}
	if _, err := os.Stat(sessionLogPath(path)); !os.IsNotExist(err) {
		t.Errorf("session log left: %v", err)
	}
}

// TestKilledSessionRecordIsKept: a SessionStart hook killed after its log
// line and before its seed write, and a write killed after committing the
// logged sessions and before removing the log, lose nothing and commit
// nothing twice: the next write holds every session exactly once.
func TestKilledSessionRecordIsKept(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a process")
	}
	path := versionedSeed(t)
	dir := filepath.Dir(path)
	if err := RecordSession(path, "before-kill", time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	killMidWrite(t, path, "record-before-rename")
	if st := mustLoad(t, path).State; st.LastSessionID != "before-kill" {
		t.Fatalf("the killed hook replaced the seed: %+v", st)
	}
	killMidWrite(t, path, "after-session-commit")
	if got := sessionCommits(t, dir); len(got) != 1 || got[0] != "Update: 2 sessions started: before-kill, killed-hook" {
		t.Fatalf("session commits after the kills: %q", got)
	}
	if st := mustLoad(t, path).State; st.LastSessionID != "killed-hook" {
		t.Errorf("state %+v, want the killed hook's session", st)
	}
	learn(t, path, "Next insight")
	if got := sessionCommits(t, dir); len(got) != 1 {
		t.Errorf("session commits after the next write: %q", got)
	}
	if _, err := os.Stat(sessionLogPath(path)); !os.IsNotExist(err) {
		t.Errorf("session log left: %v", err)
	}
}
