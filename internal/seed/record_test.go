package seed

import (
	"bytes"
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

// TestRecordSessionCommittedByNextWrite: RecordSession leaves the seed
// file as it is and commits nothing, while every read shows the newest
// session; the next write commits every logged session (one commit naming
// them all, below its own) and removes the log.
func TestRecordSessionCommittedByNextWrite(t *testing.T) {
	path := versionedSeed(t)
	dir := filepath.Dir(path)
	before := testenv.ReadFile(t, path)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, id := range []string{"s1", "s2", "s3"} {
		if err := RecordSession(path, id, at.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(testenv.ReadFile(t, path), before) || len(gitLog(t, dir)) != 1 {
		t.Fatalf("RecordSession wrote the seed or committed: log %q", gitLog(t, dir))
	}
	ro, _, err := ReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, st := range map[string]State{"Load": mustLoad(t, path).State, "Peek": mustSeed(t)(Peek(path)).State, "ReadOnly": ro.State} {
		if st.LastSessionID != "s3" || st.LastSessionAt != "2026-03-01T09:02:00.000Z" {
			t.Errorf("%s shows %s at %s, want the newest logged session", name, st.LastSessionID, st.LastSessionAt)
		}
	}
	if recs, err := readSessionLog(path); err != nil || len(recs) != 3 {
		t.Fatalf("session log holds %+v (%v), want 3 sessions", recs, err)
	}
	learn(t, path, "Next insight")
	log := gitLog(t, dir)
	if len(log) != 3 || !strings.HasPrefix(log[0], "Learn: added insight Next insight") || log[1] != "Update: 3 sessions started: s1, s2, s3\n\n"+CommitTrailer {
		t.Errorf("log = %q", log)
	}
	if st := mustLoad(t, path).State; st.LastSessionID != "s3" {
		t.Errorf("state after the commit: %+v", st)
	}
	if _, err := os.Stat(sessionLogPath(path)); !os.IsNotExist(err) {
		t.Errorf("session log left after the commit: %v", err)
	}
	if out := git(t, dir, "status", "--porcelain"); out != "" {
		t.Errorf("working tree not clean:\n%s", out)
	}
}

// TestSessionLogKeptForInvalidSeed: a write refused because the seed is
// invalid keeps the log (and writes nothing); after the repair the next
// write commits it.
func TestSessionLogKeptForInvalidSeed(t *testing.T) {
	path := versionedSeed(t)
	if err := RecordSession(path, "s1", time.Now()); err != nil {
		t.Fatal(err)
	}
	valid := testenv.ReadFile(t, path)
	invalid := bytes.Replace(valid, []byte(`"aiName": "Ivy"`), []byte(`"aiName": 5`), 1)
	if err := os.WriteFile(path, invalid, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Update(path, nil, CategoryLearn, func(*Seed) (string, error) { return "x", nil }); err == nil {
		t.Fatal("a write to an invalid seed succeeded")
	}
	if !bytes.Equal(testenv.ReadFile(t, path), invalid) {
		t.Error("the invalid seed was rewritten")
	}
	if _, err := os.Stat(sessionLogPath(path)); err != nil {
		t.Fatalf("session log gone with the seed invalid: %v", err)
	}
	if err := os.WriteFile(path, valid, 0o600); err != nil { // the user's fix
		t.Fatal(err)
	}
	learn(t, path, "After the fix")
	if got := sessionCommits(t, filepath.Dir(path)); len(got) != 1 || got[0] != "Update: session s1 started" {
		t.Errorf("session commits: %q", got)
	}
}

// TestSessionLogWithoutGit: without git the next write applies the log
// and removes it; a torn line (a kill mid-append) is skipped and costs no
// later session.
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
	if err := RecordSession(path, "s2", time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if recs, err := readSessionLog(path); err != nil || len(recs) != 2 || recs[1].ID != "s2" {
		t.Fatalf("after a torn line: %+v, %v", recs, err)
	}
	if _, _, err := Update(path, noGit, CategoryLearn, func(*Seed) (string, error) { return "", nil }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(testenv.ReadFile(t, path), []byte(`"lastSessionId": "s2"`)) {
		t.Errorf("seed without the session:\n%s", testenv.ReadFile(t, path))
	}
	if _, err := os.Stat(sessionLogPath(path)); !os.IsNotExist(err) {
		t.Errorf("session log left: %v", err)
	}
}

// TestKilledSessionRecordIsKept: a write killed while it writes the logged
// sessions into the seed, and one killed after committing them and before
// removing the log, lose nothing and commit nothing twice: the next write
// holds every session exactly once.
func TestKilledSessionRecordIsKept(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a process")
	}
	path := versionedSeed(t)
	dir := filepath.Dir(path)
	for i, id := range []string{"s1", "s2"} {
		if err := RecordSession(path, id, time.Now().Add(time.Duration(i-5)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	killMidWrite(t, path, "session-before-rename")
	if got := sessionCommits(t, dir); len(got) != 0 {
		t.Fatalf("session commits after a kill before the rename: %q", got)
	}
	killMidWrite(t, path, "after-session-commit")
	if got := sessionCommits(t, dir); len(got) != 1 || got[0] != "Update: 2 sessions started: s1, s2" {
		t.Fatalf("session commits after the kills: %q", got)
	}
	learn(t, path, "Next insight")
	if got := sessionCommits(t, dir); len(got) != 1 {
		t.Errorf("session commits after the next write: %q", got)
	}
	if st := mustLoad(t, path).State; st.LastSessionID != "s2" {
		t.Errorf("state %+v, want the newest session", st)
	}
	if _, err := os.Stat(sessionLogPath(path)); !os.IsNotExist(err) {
		t.Errorf("session log left: %v", err)
	}
}
