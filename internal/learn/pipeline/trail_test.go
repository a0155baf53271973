package pipeline

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/trail/trailtest"
	"github.com/paige-dev/paige/internal/project"
	"github.com/paige-dev/paige/internal/testenv"
)

// repoWithWorktree makes a git repository "app" with a linked worktree
// "app-feature-x" and returns both paths.
func repoWithWorktree(t *testing.T) (repo, wt string) {
	t.Helper()
	base := t.TempDir()
	repo, wt = filepath.Join(base, "app"), filepath.Join(base, "app-feature-x")
	os.MkdirAll(repo, 0o755)
	testenv.Git(t, repo, "init", "-q")
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module app\n"), 0o644)
	testenv.Git(t, repo, "add", "go.mod")
	testenv.Git(t, repo, "commit", "-qm", "init")
	testenv.Git(t, repo, "worktree", "add", "-q", "-b", "x", wt)
	return repo, wt
}

func writeSession(t *testing.T, dir, name string, s *trailtest.Session) string {
	t.Helper()
	p := filepath.Join(dir, name+".jsonl")
	if err := os.WriteFile(p, []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func byKey(t *testing.T, entries []learn.Entry, content string) learn.Entry {
	t.Helper()
	var hits []learn.Entry
	for _, e := range entries {
		if e.Content == content {
			hits = append(hits, e)
		}
	}
	if len(hits) != 1 {
		t.Fatalf("entries with %q: %d, want 1; all: %+v", content, len(hits), entries)
	}
	return hits[0]
}

// TestTrailAcrossSessions: "go test" run in three sessions — in the main
// checkout, in a worktree of the same repository, with different flags and
// packages — is one procedure of one project (the git common directory),
// its evidence and confidence growing with each session; a forced re-run
// of a session counts nothing again; a forgotten procedure is not learned
// again; a failed command is never learned.
func TestTrailAcrossSessions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed for the worktree: %v", err)
	}
	repo, wt := repoWithWorktree(t)
	dir := t.TempDir()
	s := newStore(t)
	opts := Options{Store: s, Now: fixedNow}
	paths := []string{
		writeSession(t, dir, "s1", trailtest.New("s1", repo).User("run the tests").
			Bash("go test ./... 2>&1 | tail -20", "ok  \tapp\t0.01s", 0).Bash("go build ./...", "", 0)),
		writeSession(t, dir, "s2", trailtest.New("s2", wt).User("fix the fee bug").
			Bash("cd "+wt+" && go test -count=1 -run TestFee ./internal/fees/", "ok  \tapp/internal/fees\t0.02s", 0).
			Bash("go vet ./...", "vet: bad", 1)),
		writeSession(t, dir, "s3", trailtest.New("s3", filepath.Join(repo, "internal")).
			Bash("timeout 120 go test -v ./...", "ok", 0).Bash("go test ./...", "ok", 0)),
	}
	for _, p := range paths {
		run(t, p, opts)
	}
	all, err := s.Entries()
	if err != nil {
		t.Fatal(err)
	}
	e := byKey(t, all, "tests: go test ./...")
	wantProject := project.Resolve(repo)
	if e.Project != wantProject || !strings.HasSuffix(wantProject, ".git") {
		t.Errorf("project = %q, want the common dir %q", e.Project, wantProject)
	}
	if o := e.Observed; o == nil || o.SessionCount != 3 || o.Runs != 4 || len(o.Sessions) != 3 || e.Confidence != 0.85 {
		t.Errorf("evidence = %+v, confidence %v; want 3 sessions, 4 runs, 0.85", o, e.Confidence)
	}
	if !strings.Contains(e.Evidence, "4 times in 3 sessions") {
		t.Errorf("evidence text %q", e.Evidence)
	}
	for _, x := range all {
		if strings.Contains(x.Content, "go vet") {
			t.Errorf("a failed command was learned: %+v", x)
		}
	}

	res := run(t, paths[2], Options{Store: s, Now: fixedNow, Force: true})
	if len(res.Updated) != 0 || res.Stats.BehaviourEntries != 0 {
		t.Errorf("a forced re-run counted the session again: %+v", res)
	}

	if _, err := s.Forget(e.ID); err != nil {
		t.Fatal(err)
	}
	p4 := writeSession(t, dir, "s4", trailtest.New("s4", repo).Bash("go test ./...", "ok", 0))
	run(t, p4, opts)
	all, _ = s.Entries()
	if got := byKey(t, all, "tests: go test ./..."); !got.Forgotten || got.Observed.SessionCount != 3 {
		t.Errorf("the forgotten procedure came back: %+v", got)
	}
}

// TestTrailControls: NoTrail learns nothing from the trail; a dry run
// reports what it would learn and writes nothing; a secret in an
// environment assignment never reaches the store; proposals to the seed
// wait for a second session.
func TestTrailControls(t *testing.T) {
	dir := t.TempDir()
	cwd := filepath.Join(t.TempDir(), "svc")
	p := writeSession(t, dir, "a", trailtest.New("a", cwd).
		Bash("API_TOKEN=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 pnpm test", "ok", 0).
		Bash(`go build -ldflags "-X main.key=sk-ant-api03-zyxwvutsrqponmlkjihgfedcba9876543210" ./cmd/svc`, "", 0))

	s := newStore(t)
	if res := run(t, p, Options{Store: s, Now: fixedNow, NoTrail: true}); len(res.Entries) != 0 {
		t.Errorf("NoTrail learned %+v", res.Entries)
	}
	s = newStore(t)
	res := run(t, p, Options{Store: s, Now: fixedNow, DryRun: true})
	if len(res.Entries) != 5 || res.Stats.BehaviourEntries != 5 {
		t.Errorf("dry run reports %+v, want tests: pnpm test, package manager: pnpm, runtime: Node.js, the build, language: Go", res.Entries)
	}
	for _, e := range res.Entries {
		if strings.Contains(e.Content+e.Observed.Key, "sk-ant") {
			t.Errorf("dry run shows a secret: %+v", e)
		}
	}
	if all, _ := s.Entries(); len(all) != 0 {
		t.Errorf("dry run wrote %+v", all)
	}
	res = run(t, p, Options{Store: s, Now: fixedNow})
	raw, err := os.ReadFile(s.EntriesPath())
	if err != nil || strings.Contains(string(raw), "sk-ant") || strings.Contains(string(raw), "API_TOKEN") {
		t.Errorf("store (%v) holds the secret:\n%s", err, raw)
	}
	if got := byKey(t, res.Entries, "tests: pnpm test"); got.Project != cwd {
		t.Errorf("project of a cwd that is gone = %q, want %q", got.Project, cwd)
	}
	if props := Proposable(res); len(props) != 0 {
		t.Errorf("first sighting proposed to the seed: %+v", props)
	}
	p2 := writeSession(t, dir, "b", trailtest.New("b", cwd).Bash("pnpm test", "ok", 0))
	res = run(t, p2, Options{Store: s, Now: fixedNow})
	if props := Proposable(res); len(props) != 3 || len(res.Updated) != 3 {
		t.Errorf("after a second session, proposable %+v (updated %d), want the 3 pnpm habits", props, len(res.Updated))
	}
}

// TestTrailConcurrentRuns: eight sessions of one project stored at once
// (the SessionEnd worker, the CLI and the API share a store) make one
// entry that counts all eight, never two entries or a lost session.
func TestTrailConcurrentRuns(t *testing.T) {
	dir, cwd := t.TempDir(), filepath.Join(t.TempDir(), "svc")
	s := newStore(t)
	var paths []string
	for i := range 8 {
		name := fmt.Sprintf("c%d", i)
		paths = append(paths, writeSession(t, dir, name, trailtest.New(name, cwd).Bash("cargo test", "ok", 0)))
	}
	errs := make(chan error, len(paths))
	for _, p := range paths {
		go func() {
			_, err := Run(context.Background(), p, Options{Store: s, Now: fixedNow})
			errs <- err
		}()
	}
	for range paths {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	all, err := s.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if e := byKey(t, all, "tests: cargo test"); e.Observed.SessionCount != 8 || e.Observed.Runs != 8 || e.Confidence != 0.95 {
		t.Errorf("after 8 concurrent sessions: %+v, confidence %v", e.Observed, e.Confidence)
	}
}
