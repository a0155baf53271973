package dashboard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
)

// fakeGH writes an executable `gh` shell script running body into a fresh
// directory and returns a GH that finds it there (and only there) and runs
// in a fresh project directory. The script records its arguments in
// $dir/args and its working directory in $dir/cwd.
func fakeGH(t testing.TB, body string) (*GH, string) {
	t.Helper()
	bin := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$@\" > %q\npwd > %q\n%s\n",
		filepath.Join(bin, "args"), filepath.Join(bin, "cwd"), body)
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &GH{Dir: t.TempDir(), LookPath: LookPathIn(bin)}, bin
}

// ghPrints is a gh body that prints out and exits 0.
func ghPrints(out string) string { return "cat <<'EOF'\n" + out + "\nEOF" }

func TestListIssues(t *testing.T) {
	t.Parallel()
	gh, bin := fakeGH(t, ghPrints(`[{"number":3,"title":"Slow query","body":"b","labels":[{"id":"L","name":"perf"}],
		"assignees":[{"login":"ana"}],"comments":[{"author":{"login":"bo"},"body":"+1"}],"url":"ignored"},
		{"number":0,"title":"no number"}]`))
	got, err := gh.ListIssues(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []issueassessment.Issue{{Number: 3, Title: "Slow query", Body: "b", Labels: []issueassessment.Label{{Name: "perf"}},
		Assignees: []issueassessment.User{{Login: "ana"}}, Comments: []issueassessment.Comment{{Author: issueassessment.User{Login: "bo"}, Body: "+1"}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	args, _ := os.ReadFile(filepath.Join(bin, "args"))
	if diff := cmp.Diff(strings.Join(ghArgs, "\n")+"\n", string(args)); diff != "" {
		t.Errorf("gh args (-want +got):\n%s", diff)
	}
	cwd, _ := os.ReadFile(filepath.Join(bin, "cwd"))
	wantDir, _ := filepath.EvalSymlinks(gh.Dir)
	if gotDir, _ := filepath.EvalSymlinks(strings.TrimSpace(string(cwd))); gotDir != wantDir {
		t.Errorf("gh ran in %q, want PROJECT_DIR %q", gotDir, wantDir)
	}
}

// Scenario 12.5, EC-82, EC-83: every gh failure has a readable message.
func TestListIssuesFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		timeout    time.Duration
		want       string
	}{
		{"no remote (EC-83)", "echo 'no git remotes found' >&2; exit 1", 0, MsgNoGitHubRemote},
		{"remote not on GitHub", "echo 'none of the git remotes configured for this repository point to a known GitHub host. To tell gh about a new GitHub host, please use `gh auth login`' >&2; exit 1", 0, MsgNoGitHubRemote},
		{"not a repository", "echo 'failed to run git: fatal: not a git repository (or any of the parent directories): .git' >&2; exit 1", 0, MsgNoGitHubRemote},
		{"signed out", "echo 'To get started with GitHub CLI, please run:  gh auth login' >&2; exit 4", 0, MsgGHNotLoggedIn},
		{"other failure", "echo 'HTTP 502: bad gateway\nmore' >&2; exit 1", 0, "gh issue list failed: HTTP 502: bad gateway"},
		{"silent failure", "exit 3", 0, "gh issue list failed"},
		{"unreadable output", "echo '{not json'", 0, MsgGHUnreadable},
		{"timeout", "exec sleep 5", 200 * time.Millisecond, "GitHub CLI did not answer within 200ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gh, _ := fakeGH(t, tt.body)
			gh.Timeout = tt.timeout
			_, err := gh.ListIssues(context.Background())
			var ge *GHError
			if !errors.As(err, &ge) || ge.Message != tt.want {
				t.Errorf("got %v, want message %q", err, tt.want)
			}
		})
	}
}

// EC-82: gh not on PATH.
func TestListIssuesNotInstalled(t *testing.T) {
	t.Parallel()
	gh := &GH{Dir: t.TempDir(), LookPath: LookPathIn(t.TempDir())}
	_, err := gh.ListIssues(context.Background())
	var ge *GHError
	if !errors.As(err, &ge) || ge.Message != "GitHub CLI not found" {
		t.Errorf("got %v, want GitHub CLI not found", err)
	}
}

// Issue 15: a missing gh is looked up once per RetryAfter, not per
// dashboard load; after RetryAfter it is looked up again.
func TestListIssuesRemembersFailure(t *testing.T) {
	var lookups atomic.Int32
	empty := t.TempDir()
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	gh := &GH{Dir: t.TempDir(), RetryAfter: time.Minute, LookPath: func(f string) (string, error) {
		lookups.Add(1)
		return LookPathIn(empty)(f)
	}}
	gh.cache.now = func() time.Time { return clock }
	for range 3 {
		_, err := gh.ListIssues(context.Background())
		var ge *GHError
		if !errors.As(err, &ge) || ge.Message != MsgGHNotFound {
			t.Fatalf("got %v, want %q", err, MsgGHNotFound)
		}
	}
	if got := lookups.Load(); got != 1 {
		t.Errorf("gh looked up %d times within RetryAfter, want 1", got)
	}
	clock = clock.Add(time.Minute)
	if _, err := gh.ListIssues(context.Background()); err == nil {
		t.Fatal("no error after RetryAfter with gh still missing")
	}
	if got := lookups.Load(); got != 2 {
		t.Errorf("gh looked up %d times after RetryAfter, want 2", got)
	}
}

// A success is never reused: every call runs gh.
func TestListIssuesRunsEachTimeOnSuccess(t *testing.T) {
	gh, bin := fakeGH(t, `echo run >> "$(dirname "$0")/runs"; echo '[]'`)
	for range 3 {
		got, err := gh.ListIssues(context.Background())
		if err != nil || len(got) != 0 {
			t.Fatalf("got %v, %v; want no issues", got, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(bin, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "run"); n != 3 {
		t.Errorf("gh ran %d times, want 3", n)
	}
}

// Callers that arrive while a run is in flight share its outcome; a run
// whose own context was cancelled is not remembered.
func TestGHCacheSharesFlight(t *testing.T) {
	var c ghCache
	var runs atomic.Int32
	release := make(chan struct{})
	list := func(context.Context) ([]issueassessment.Issue, error) {
		runs.Add(1)
		<-release
		return []issueassessment.Issue{{Number: 7}}, nil
	}
	var wg sync.WaitGroup
	results := make([][]issueassessment.Issue, 4)
	first := make(chan struct{})
	wg.Go(func() {
		close(first)
		results[0], _ = c.do(context.Background(), 0, list)
	})
	<-first
	// Wait until the first call holds the flight, then start the others.
	for deadline := time.Now().Add(30 * time.Second); ; {
		c.mu.Lock()
		inFlight := c.flight != nil
		c.mu.Unlock()
		if inFlight {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("first call never started its run")
		}
		time.Sleep(time.Millisecond)
	}
	for i := 1; i < 4; i++ {
		wg.Go(func() { results[i], _ = c.do(context.Background(), 0, list) })
	}
	for deadline := time.Now().Add(30 * time.Second); ; { // all three parked on the flight
		c.mu.Lock()
		parked := c.waiters
		c.mu.Unlock()
		if parked == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d callers parked, want 3", parked)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	for i, r := range results {
		if len(r) != 1 || r[0].Number != 7 {
			t.Errorf("caller %d: got %v", i, r)
		}
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("gh ran %d times for 4 concurrent callers, want 1", n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.do(ctx, 0, func(ctx context.Context) ([]issueassessment.Issue, error) { return nil, ctx.Err() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	got, err := c.do(context.Background(), 0, func(context.Context) ([]issueassessment.Issue, error) {
		return []issueassessment.Issue{{Number: 1}}, nil
	})
	if err != nil || len(got) != 1 {
		t.Errorf("after a cancelled run: got %v, %v; want a fresh run", got, err)
	}
}

func TestLookPathIn(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(a, "gh"), []byte("x"), 0o644) // not executable
	os.Mkdir(filepath.Join(b, "dir"), 0o755)
	os.WriteFile(filepath.Join(b, "gh"), []byte("#!/bin/sh\n"), 0o755)
	got, err := LookPathIn(a + string(os.PathListSeparator) + b)("gh")
	if err != nil || got != filepath.Join(b, "gh") {
		t.Errorf("got %q, %v; want %q", got, err, filepath.Join(b, "gh"))
	}
	if _, err := LookPathIn(b)("dir"); err == nil {
		t.Error("a directory was found as an executable")
	}
}

func TestParseIssues(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "null", " [] \n"} {
		got, err := ParseIssues([]byte(in))
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("ParseIssues(%q): got %v, %v; want empty", in, got, err)
		}
	}
	for _, in := range []string{"{}", `"x"`, "[1]", "[{"} {
		if _, err := ParseIssues([]byte(in)); err == nil {
			t.Errorf("ParseIssues(%q): got nil error", in)
		}
	}
}

// FuzzParseIssues: gh's output never panics the parser, and every issue it
// returns has a positive number.
func FuzzParseIssues(f *testing.F) {
	f.Add([]byte(`[{"number":1,"title":"t","body":"b","labels":[],"assignees":[],"comments":[]}]`))
	f.Add([]byte(`null`))
	f.Add([]byte(`[{"number":-1},{"number":1e3}]`))
	f.Add([]byte(`[{"number":"1"}]`))
	f.Fuzz(func(t *testing.T, out []byte) {
		issues, err := ParseIssues(out)
		if err != nil {
			return
		}
		for _, is := range issues {
			if is.Number <= 0 {
				t.Fatalf("issue with number %d kept", is.Number)
			}
		}
	})
}

func TestClassifyGHFailure(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 500)
	if got := ClassifyGHFailure(long); len(got) > 330 {
		t.Errorf("long stderr not cut: %d chars", len(got))
	}
	if got := ClassifyGHFailure("HTTP 401: Bad credentials (authentication required)"); got != MsgGHNotLoggedIn {
		t.Errorf("auth failure: got %q", got)
	}
}

func TestViewIssue(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("é", 400) // 800 bytes: cut to 500 on a rune boundary
	gh, _ := fakeGH(t, ghPrints(`{"number":7,"title":"Race","body":"`+body+`","labels":[{"name":"bug"}],"url":"https://x/7"}`))
	got, err := gh.ViewIssue(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Race" || len(got.Summary) != IssueSummaryMax || got.URL != "https://x/7" || len(got.Labels) != 1 {
		t.Errorf("issue = %+v", got)
	}
	for name, script := range map[string]string{
		"not an issue": ghPrints(`{"number":7}`),
		"garbage":      ghPrints(`nope`),
		"gh fails":     "echo 'could not resolve to an Issue' >&2; exit 1",
	} {
		gh, _ := fakeGH(t, script)
		var ge *GHError
		if _, err := gh.ViewIssue(context.Background(), 7); !errors.As(err, &ge) {
			t.Errorf("%s: err = %v, want *GHError", name, err)
		}
	}
}
