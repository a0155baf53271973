package llm

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// # Retries
//
// Every Claude call of the process retries under one [RetryPolicy]: the
// structured calls ([Call]), learn chat (whole and streamed replies),
// transcript extraction and the GhostPath agent. The SDK's own retries are
// off, so every attempt is ours and is recorded.
//
//   - What is retried ([IsTransient]): HTTP 408, 409, 429, any 5xx including
//     529 overloaded, an SSE error event of those types, connection failures
//     (refused, reset, EOF) and an attempt that ran past its per-attempt
//     timeout while the caller still waits. Never 400, 401, 403, 404, 413,
//     refusals, max_tokens, schema mismatches, a missing key, or a cancelled
//     or expired caller.
//   - When: the server's retry-after-ms, else retry-after (seconds or an
//     HTTP date), capped at [RetryPolicy.MaxRetryAfter]; otherwise
//     exponential backoff BaseDelay·2^n with ±25 % jitter, capped at
//     MaxDelay.
//   - How often: at most MaxAttempts attempts in all.
//   - Until: the caller's context ends (cancellation during a pause returns
//     at once) or the pause would outlast the caller's deadline, in which
//     case the last error is returned without waiting.

// The defaults of [RetryPolicy] (the GhostPath spec's §0.1 values, shared by
// every caller).
const (
	DefaultMaxAttempts   = 4                // the first attempt and 3 retries
	DefaultRetryDelay    = time.Second      // first backoff pause
	DefaultMaxRetryDelay = 60 * time.Second // backoff cap
	// DefaultMaxRetryAfter caps a server-sent retry-after: a longer wait is
	// cut to this, so a bad header cannot park a call for hours.
	DefaultMaxRetryAfter = 60 * time.Second
)

// RetryPolicy is how failed model calls are retried (see the package's
// Retries section). The zero value means the defaults; a Client's policy
// is set with [Options.Retry].
type RetryPolicy struct {
	MaxAttempts   int           // attempts in all, first included; 0: DefaultMaxAttempts; 1: no retry
	BaseDelay     time.Duration // 0: DefaultRetryDelay
	MaxDelay      time.Duration // backoff cap; 0: DefaultMaxRetryDelay
	MaxRetryAfter time.Duration // retry-after cap; 0: DefaultMaxRetryAfter
	// Jitter returns the backoff factor, in [0.75, 1.25); nil: math/rand.
	Jitter func() float64
	// Sleep waits d unless ctx ends first (then it returns ctx's error);
	// nil: a timer. Tests record the pauses with it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for HTTP-date retry-after values; nil: time.Now.
	Now func() time.Time
}

// withDefaults returns p with its zero fields set.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultRetryDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxRetryDelay
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if p.Jitter == nil {
		p.Jitter = func() float64 { return 0.75 + rand.Float64()*0.5 }
	}
	if p.Sleep == nil {
		p.Sleep = sleep
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	return p
}

// Backoff returns the pause before retry n (0-based) when the server gave
// no retry-after: BaseDelay·2^n times the jitter, capped at MaxDelay.
func (p RetryPolicy) Backoff(n int) time.Duration {
	p = p.withDefaults()
	d := float64(p.BaseDelay) * math.Pow(2, float64(min(n, 30))) * p.Jitter()
	return time.Duration(min(d, float64(p.MaxDelay)))
}

// Delay returns the pause before retry n after err: the server's
// retry-after (capped at MaxRetryAfter) when err carries one, else
// [RetryPolicy.Backoff].
func (p RetryPolicy) Delay(n int, err error) time.Duration {
	p = p.withDefaults()
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
		return min(apiErr.RetryAfter, p.MaxRetryAfter)
	}
	return p.Backoff(n)
}

// Do runs attempt until it succeeds, fails with an error that is not
// [IsTransient], MaxAttempts attempts have run, or ctx ends; it returns the
// last attempt's error. A cancellation during a pause, or during an
// attempt that then failed, returns the last error joined with ctx's error
// (the caller learns it was cancelled whenever the cancellation came). A pause that would end after ctx's
// deadline is not taken: the last error is returned at once. what names
// the call in the warning logged before each retry (logger may be nil).
func (p RetryPolicy) Do(ctx context.Context, logger *slog.Logger, what string, attempt func(ctx context.Context) error) error {
	p = p.withDefaults()
	for n := 0; ; n++ {
		err := attempt(ctx)
		if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			return errors.Join(err, ctx.Err())
		}
		if err == nil || n+1 >= p.MaxAttempts || !retryable(ctx, err) {
			return err
		}
		delay := p.Delay(n, err)
		if dl, ok := ctx.Deadline(); ok && p.Now().Add(delay).After(dl) {
			return err
		}
		if logger != nil {
			logger.Warn("llm: model call failed, retrying", "call", what, "attempt", n+1,
				"delay", delay.String(), "kind", string(Classify(err)), "err", err)
		}
		if serr := p.Sleep(ctx, delay); serr != nil {
			return errors.Join(err, serr)
		}
	}
}

// retryable is IsTransient, plus an attempt that timed out on its own
// (the SDK's per-attempt timeout) while ctx is still live.
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var perm *permanentError
	if errors.As(err, &perm) {
		return false
	}
	return IsTransient(err) || errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrTimeout)
}

// Permanent marks err as not to be retried by [RetryPolicy.Do] whatever
// its kind (e.g. a stream that already delivered text to its reader). It
// unwraps to err; nil stays nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// ParseRetryAfter reads how long the server asks to wait from h:
// retry-after-ms (milliseconds, possibly fractional), else retry-after in
// seconds (possibly fractional) or as an HTTP date (relative to now). It
// reports false when there is no usable value (absent, garbage, negative,
// or a date in the past).
func ParseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if d, ok := positive(v, time.Millisecond); ok {
			return d, true
		}
	}
	v := strings.TrimSpace(h.Get("retry-after"))
	if v == "" {
		return 0, false
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return positive(v, time.Second)
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d, true
		}
	}
	return 0, false
}

// maxHeaderWait bounds a parsed wait before any cap, so huge numbers
// cannot overflow a Duration.
const maxHeaderWait = 1e6 * time.Second

// positive parses v as a positive number of units.
func positive(v string, unit time.Duration) (time.Duration, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0) || math.IsInf(f, 0) {
		return 0, false
	}
	return time.Duration(min(f*float64(unit), float64(maxHeaderWait))), true
}

// Retry runs attempt under the Client's retry policy (see
// [RetryPolicy.Do]); callers of the SDK (chat, GhostPath) wrap each model
// request in it, converting SDK errors with [WrapError]. callType names
// the call in the log.
func (c *Client) Retry(ctx context.Context, callType string, attempt func(ctx context.Context) error) error {
	return c.retry.Do(ctx, c.logger, callType, attempt)
}

// RetryPolicy returns the Client's policy, defaults filled in.
func (c *Client) RetryPolicy() RetryPolicy { return c.retry }

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
