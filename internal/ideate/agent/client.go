package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/llm"
)

// Retry defaults of the resilient client (spec §0.1).
const (
	DefaultMaxRetries = 3
	DefaultBaseDelay  = time.Second
	DefaultMaxDelay   = 60 * time.Second
	// maxRetryAfter bounds a server-sent retry-after so a bad header cannot
	// park a run for hours.
	maxRetryAfter = 10 * time.Minute
)

// Messages is the part of the SDK the runner uses; *anthropic.MessageService
// implements it.
type Messages interface {
	New(ctx context.Context, params anthropic.MessageNewParams, opts ...option.RequestOption) (*anthropic.Message, error)
}

// ClientOptions configure a [Client]. A zero ClientOptions uses the defaults.
type ClientOptions struct {
	MaxRetries int           // if zero, DefaultMaxRetries; negative means none
	BaseDelay  time.Duration // if zero, DefaultBaseDelay
	MaxDelay   time.Duration // if zero, DefaultMaxDelay
	// Timeout bounds each attempt (ANTHROPIC_TIMEOUT_SECONDS); zero means
	// llm.DeadlineAgentTurn (300 s, the spec's default). A timed-out attempt
	// fails at once, as the spec says, with an ANTHROPIC_API_ERROR wrapping
	// an *llm.TimeoutError.
	Timeout time.Duration
	// Sleep waits d or until ctx ends; nil sleeps for real. Tests inject it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a factor in [0.75, 1.25); nil uses math/rand.
	Jitter func() float64
	Logger *slog.Logger
}

// Client wraps the SDK's Messages.New with the spec's resilience: rate
// limits (429) and transient failures (5xx, 529, connection errors) are
// retried up to MaxRetries times with exponential backoff (BaseDelay·2^n,
// ±25 % jitter, capped at MaxDelay), a retry-after header wins over the
// backoff, and any other 4xx fails at once. The SDK must be built with
// retries off (option.WithMaxRetries(0)) so retries do not stack. Every
// failure becomes ANTHROPIC_API_ERROR, except a cancelled context, which is
// returned as is. A Client is safe for concurrent use.
type Client struct {
	msgs Messages
	o    ClientOptions
}

// NewClient wraps msgs (usually &sdk.Messages).
func NewClient(msgs Messages, opts *ClientOptions) *Client {
	var o ClientOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = DefaultMaxRetries
	} else if o.MaxRetries < 0 {
		o.MaxRetries = 0
	}
	if o.BaseDelay == 0 {
		o.BaseDelay = DefaultBaseDelay
	}
	if o.Timeout <= 0 {
		o.Timeout = llm.DeadlineAgentTurn
	}
	if o.MaxDelay == 0 {
		o.MaxDelay = DefaultMaxDelay
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Jitter == nil {
		o.Jitter = func() float64 { return 0.75 + rand.Float64()*0.5 }
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Client{msgs: msgs, o: o}
}

// Backoff returns the delay before retry attempt (0-based): BaseDelay·2^attempt
// times jitter, capped at MaxDelay.
func (c *Client) Backoff(attempt int) time.Duration {
	d := float64(c.o.BaseDelay) * math.Pow(2, float64(attempt)) * c.o.Jitter()
	return time.Duration(min(d, float64(c.o.MaxDelay)))
}

// Create sends params, retrying as described on [Client]. The error is a
// *core.Error (ANTHROPIC_API_ERROR) or ctx.Err().
func (c *Client) Create(ctx context.Context, params anthropic.MessageNewParams) (*anthropic.Message, error) {
	for attempt := 0; ; attempt++ {
		msg, err := c.attempt(ctx, params)
		if err == nil {
			return msg, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		kind, retryAfter := classify(err)
		if kind == kindFatal || attempt >= c.o.MaxRetries {
			return nil, apiError(err, kind, retryAfter, attempt)
		}
		delay := c.Backoff(attempt)
		if retryAfter > 0 {
			delay = min(retryAfter, maxRetryAfter)
		}
		c.o.Logger.Warn("anthropic call failed, retrying", "attempt", attempt+1, "delay", delay.String(), "err", err)
		if err := c.o.Sleep(ctx, delay); err != nil {
			return nil, err
		}
	}
}

func (c *Client) attempt(ctx context.Context, params anthropic.MessageNewParams) (*anthropic.Message, error) {
	actx, cancel := context.WithTimeoutCause(ctx, c.o.Timeout,
		&llm.TimeoutError{CallType: llm.CallTypeGhostPath, After: c.o.Timeout})
	defer cancel()
	msg, err := c.msgs.New(actx, params)
	return msg, llm.TimeoutCause(actx, err)
}

type errKind int

const (
	kindFatal errKind = iota
	kindRateLimit
	kindTransient
)

// classify sorts an SDK error: 429 rate limit (with retry-after), 5xx/529
// and connection failures transient, other 4xx and timeouts fatal.
func classify(err error) (errKind, time.Duration) {
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		switch {
		case apiErr.StatusCode == http.StatusTooManyRequests:
			return kindRateLimit, retryAfter(apiErr.Response)
		case apiErr.StatusCode >= 500:
			return kindTransient, retryAfter(apiErr.Response)
		}
		return kindFatal, 0
	}
	if errors.Is(err, llm.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return kindFatal, 0
	}
	return kindTransient, 0 // connection refused, reset, EOF…
}

// retryAfter reads retry-after (seconds, possibly fractional) or
// retry-after-ms from resp; zero when absent or unparsable.
func retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	if ms := resp.Header.Get("retry-after-ms"); ms != "" {
		if f, err := strconv.ParseFloat(ms, 64); err == nil && f > 0 {
			return time.Duration(f * float64(time.Millisecond))
		}
	}
	if s := strings.TrimSpace(resp.Header.Get("retry-after")); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
			return time.Duration(f * float64(time.Second))
		}
		if t, err := http.ParseTime(s); err == nil {
			return max(time.Until(t), 0)
		}
	}
	return 0
}

// errorType is what an API error.type looks like ("overloaded_error");
// anything else from the body is not repeated.
var errorType = regexp.MustCompile(`^[a-z_]{1,40}$`)

func apiError(err error, kind errKind, retryAfter time.Duration, attempt int) *core.Error {
	typ, msg := "client_error", "request rejected"
	var apiErr *anthropic.Error
	status := 0
	if errors.As(err, &apiErr) {
		status = apiErr.StatusCode
		if t := string(apiErr.Type()); errorType.MatchString(t) {
			typ = t
		}
	}
	var after time.Duration
	switch {
	case kind == kindRateLimit:
		typ, msg = "rate_limit", fmt.Sprintf("Rate limit exceeded after %d retries", attempt)
	case kind == kindTransient && status == 0:
		typ, msg = "connection_error", fmt.Sprintf("Transient failure after %d retries", attempt)
	case kind == kindTransient:
		msg = fmt.Sprintf("Server error %d after %d retries", status, attempt)
	case errors.Is(err, context.DeadlineExceeded):
		typ, msg = "timeout", "API timeout"
		var te *llm.TimeoutError
		if errors.As(err, &te) {
			after = te.After
			msg = fmt.Sprintf("Claude did not answer within %v", te.After)
		}
	case status != 0:
		msg = fmt.Sprintf("request rejected with status %d", status)
	}
	// The message names the status and type only: the API's error body
	// never reaches clients (it is in the server log). Clients show the
	// sentence for people and get the API's type as api_code.
	e := core.NewError(core.CodeAnthropicAPI, "Anthropic API error (%s): %s", typ, msg).
		ForPeople(apiErrorForPeople(kind, status, after))
	e.Context.APICode = typ
	e.Err = err
	if retryAfter > 0 {
		ms := retryAfter.Milliseconds()
		e.Context.RetryAfterMs = &ms
	}
	return e
}

// apiErrorForPeople is the sentence a user reads for a failed model call of
// kind with HTTP status (0 when none); after is the timeout that expired.
func apiErrorForPeople(kind errKind, status int, after time.Duration) string {
	const saved = " Your session is saved: resume it to try again."
	switch {
	case kind == kindRateLimit:
		return "Claude is receiving too many requests from this API key right now. Wait a minute, then resume the session."
	case kind == kindTransient && status == 0:
		return "Paige could not reach Claude (a network problem)." + saved
	case kind == kindTransient:
		return "Claude's service is overloaded or having trouble right now." + saved
	case after > 0:
		return "Claude did not answer within " + humanDuration(after) + "." + saved
	case status == http.StatusUnauthorized:
		return "Claude did not accept Paige's API key. Check ANTHROPIC_API_KEY and restart Paige."
	case status == http.StatusForbidden:
		return "Claude refused this request: the API key has no access to this model or feature. Check the key's permissions."
	case status == http.StatusNotFound:
		return "Claude does not know the model Paige asked for. Check the model in Paige's configuration."
	}
	return "Claude rejected the request Paige sent. The details are in Paige's server log."
}

// humanDuration writes d as "5 minutes" or "90 seconds".
func humanDuration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		if d == time.Minute {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", d/time.Minute)
	case d >= time.Second:
		return fmt.Sprintf("%d seconds", (d+time.Second/2)/time.Second)
	}
	return d.String()
}

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
