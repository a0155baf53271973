package dashboard

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
)

// DefaultGHRetryAfter is how long [GH.ListIssues] remembers a failed gh
// run when GH.RetryAfter is zero.
const DefaultGHRetryAfter = 30 * time.Second

// ghCache shares one gh issue list run among concurrent callers and
// remembers its failure for a while (issue 15: dashboard loads must not
// run gh every time when it is missing or slow). The zero value is ready.
type ghCache struct {
	mu       sync.Mutex
	flight   *ghFlight // the run in progress; guarded by mu
	failed   error     // the last run's failure; guarded by mu
	failedAt time.Time // guarded by mu
	waiters  int       // callers parked on a flight so far; guarded by mu (tests read it)
	now      func() time.Time
}

// ghFlight is one run whose outcome every waiting caller receives.
type ghFlight struct {
	done   chan struct{} // closed when issues and err are set
	issues []issueassessment.Issue
	err    error
	// cancelled: the runner's own context ended, so its outcome says
	// nothing about gh and waiters run again.
	cancelled bool
}

// do returns the remembered failure if younger than retry (default
// DefaultGHRetryAfter), else waits for the run in flight, else runs list.
// A failure is remembered only when ctx itself was not cancelled (then it
// says nothing about gh).
func (c *ghCache) do(ctx context.Context, retry time.Duration,
	list func(context.Context) ([]issueassessment.Issue, error)) ([]issueassessment.Issue, error) {
	if retry <= 0 {
		retry = DefaultGHRetryAfter
	}
	now := c.now
	if now == nil {
		now = time.Now
	}
	c.mu.Lock()
	if c.failed != nil && now().Sub(c.failedAt) < retry {
		err := c.failed
		c.mu.Unlock()
		return nil, err
	}
	if f := c.flight; f != nil {
		c.waiters++
		c.mu.Unlock()
		select {
		case <-f.done:
			if f.cancelled {
				return c.do(ctx, retry, list)
			}
			return slices.Clone(f.issues), f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &ghFlight{done: make(chan struct{})}
	c.flight = f
	c.mu.Unlock()

	f.issues, f.err = list(ctx)
	f.cancelled = ctx.Err() != nil
	c.mu.Lock()
	c.flight = nil
	switch {
	case f.err == nil:
		c.failed = nil
	case ctx.Err() == nil:
		c.failed, c.failedAt = f.err, now()
	}
	c.mu.Unlock()
	close(f.done)
	return slices.Clone(f.issues), f.err
}
