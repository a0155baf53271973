package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/llm"
)

// Retry defaults of the resilient client (spec §0.1): the llm package's
// RetryPolicy defaults, which every Claude caller shares.
const (
	DefaultMaxRetries = llm.DefaultMaxAttempts - 1
	DefaultBaseDelay  = llm.DefaultRetryDelay
	DefaultMaxDelay   = llm.DefaultMaxRetryDelay
)

// Messages is the part of the SDK the runner uses; *anthropic.MessageService
// implements it.
type Messages interface {
	New(ctx context.Context, params anthropic.MessageNewParams, opts ...option.RequestOption) (*anthropic.Message, error)
}

// ClientOptions configure a [Client]. A zero ClientOptions uses the defaults.
// The retry fields are GhostPath's settings (ANTHROPIC_MAX_RETRIES, ...) of
// the process's one retry policy, [llm.RetryPolicy].
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

// Client wraps the SDK's Messages.New with the process's retry policy
// ([llm.RetryPolicy]): rate limits (429), overload (529, 503), other
// transient failures (408, 409, 5xx, connection errors) are retried up to
// MaxRetries times, after the server's retry-after (capped) or exponential
// backoff (BaseDelay·2^n, ±25 % jitter, capped at MaxDelay); any other 4xx
// fails at once. The SDK must be built with retries off
// (option.WithMaxRetries(0)) so retries do not stack. Every failure
// becomes ANTHROPIC_API_ERROR, except a cancelled context, which is
// returned as is. A Client is safe for concurrent use.
type Client struct {
	msgs    Messages
	o       ClientOptions
	policy  llm.RetryPolicy
	logger  *slog.Logger
	timeout time.Duration
}

// NewClient wraps msgs (usually &sdk.Messages).
func NewClient(msgs Messages, opts *ClientOptions) *Client {
	var o ClientOptions
	if opts != nil {
		o = *opts
	}
	retries := o.MaxRetries
	if retries == 0 {
		retries = DefaultMaxRetries
	} else if retries < 0 {
		retries = 0
	}
	if o.Timeout <= 0 {
		o.Timeout = llm.DeadlineAgentTurn
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Client{msgs: msgs, o: o, logger: o.Logger, timeout: o.Timeout, policy: llm.RetryPolicy{
		MaxAttempts: retries + 1, BaseDelay: o.BaseDelay, MaxDelay: o.MaxDelay, Jitter: o.Jitter, Sleep: o.Sleep,
	}}
}

// Backoff returns the delay before retry attempt (0-based): BaseDelay·2^attempt
// times jitter, capped at MaxDelay.
func (c *Client) Backoff(attempt int) time.Duration { return c.policy.Backoff(attempt) }

// Create sends params, retrying as described on [Client]. The error is a
// *core.Error (ANTHROPIC_API_ERROR) or ctx.Err().
func (c *Client) Create(ctx context.Context, params anthropic.MessageNewParams) (*anthropic.Message, error) {
	var (
		msg      *anthropic.Message
		attempts int
	)
	err := c.policy.Do(ctx, c.logger, llm.CallTypeGhostPath, func(ctx context.Context) error {
		attempts++
		m, err := c.attempt(ctx, params)
		msg = m
		return err
	})
	switch {
	case err == nil:
		return msg, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	return nil, apiError(err, attempts-1)
}

func (c *Client) attempt(ctx context.Context, params anthropic.MessageNewParams) (*anthropic.Message, error) {
	actx, cancel := context.WithTimeoutCause(ctx, c.timeout,
		&llm.TimeoutError{CallType: llm.CallTypeGhostPath, After: c.timeout})
	defer cancel()
	msg, err := c.msgs.New(actx, params)
	return msg, llm.TimeoutCause(actx, llm.WrapError(err))
}

// errorType is what an API error.type looks like ("overloaded_error");
// anything else from the body is not repeated.
var errorType = regexp.MustCompile(`^[a-z_]{1,40}$`)

// apiError turns the last error of a call that retried retries times into
// ANTHROPIC_API_ERROR, by its type (never its text).
func apiError(err error, retries int) *core.Error {
	typ, msg := "client_error", "request rejected"
	var (
		apiErr  *llm.APIError
		rate    *llm.RateLimitError
		timeout *llm.TimeoutError
		conn    *llm.ConnectionError
	)
	status := 0
	if errors.As(err, &apiErr) {
		status = apiErr.StatusCode
		if errorType.MatchString(apiErr.Type) {
			typ = apiErr.Type
		}
	}
	switch {
	case errors.As(err, &rate):
		typ, msg = "rate_limit", fmt.Sprintf("Rate limit exceeded after %d retries", retries)
	case errors.As(err, &timeout):
		typ, msg = "timeout", fmt.Sprintf("Claude did not answer within %v", timeout.After)
	case errors.As(err, &conn), !errors.As(err, &apiErr) && llm.IsTransient(err):
		typ, msg = "connection_error", fmt.Sprintf("Transient failure after %d retries", retries)
	case llm.IsTransient(err):
		msg = fmt.Sprintf("Server error %d after %d retries", status, retries)
	case status != 0:
		msg = fmt.Sprintf("request rejected with status %d", status)
	}
	// The message names the status and type only: the API's error body
	// never reaches clients (it is in the server log).
	e := core.NewError(core.CodeAnthropicAPI, "Anthropic API error (%s): %s", typ, msg)
	e.Err = err
	if apiErr != nil && apiErr.RetryAfter > 0 {
		ms := apiErr.RetryAfter.Milliseconds()
		e.Context.RetryAfterMs = &ms
	}
	return e
}
