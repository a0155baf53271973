package dashboard

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
)

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
