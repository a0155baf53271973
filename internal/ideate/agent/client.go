package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
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

// Create sends params, retrying as described on [Client], with their
// secrets redacted ([redactParams]). The error is a *core.Error
// (ANTHROPIC_API_ERROR) or ctx.Err().
func (c *Client) Create(ctx context.Context, params anthropic.MessageNewParams) (*anthropic.Message, error) {
	params = redactParams(params)
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
	var after time.Duration
	switch {
	case errors.As(err, &rate):
		typ, msg = "rate_limit", fmt.Sprintf("Rate limit exceeded after %d retries", retries)
	case errors.As(err, &timeout):
		typ, msg = "timeout", fmt.Sprintf("Claude did not answer within %v", timeout.After)
		after = timeout.After
	case errors.As(err, &conn), !errors.As(err, &apiErr) && llm.IsTransient(err):
		typ, msg = "connection_error", fmt.Sprintf("Transient failure after %d retries", retries)
	case llm.IsTransient(err):
		msg = fmt.Sprintf("Server error %d after %d retries", status, retries)
	case status != 0:
		msg = fmt.Sprintf("request rejected with status %d", status)
	}
	// The message names the status and type only: the API's error body
	// never reaches clients (it is in the server log). Clients show the
	// sentence for people and get the API's type as api_code.
	e := core.NewError(core.CodeAnthropicAPI, "Anthropic API error (%s): %s", typ, msg).
		ForPeople(apiErrorForPeople(err, status, after))
	e.Context.APICode = typ
	e.Err = err
	if apiErr != nil && apiErr.RetryAfter > 0 {
		ms := apiErr.RetryAfter.Milliseconds()
		e.Context.RetryAfterMs = &ms
	}
	return e
}

// apiErrorForPeople is the sentence a user reads for the failed model call
// err with HTTP status (0 when none); after is the timeout that expired.
func apiErrorForPeople(err error, status int, after time.Duration) string {
	const saved = " Your session is saved: resume it to try again."
	var (
		rate *llm.RateLimitError
		conn *llm.ConnectionError
	)
	switch {
	case errors.As(err, &rate):
		return "Claude is receiving too many requests from this API key right now. Wait a minute, then resume the session."
	case errors.As(err, &conn), status == 0 && after == 0 && llm.IsTransient(err):
		return "Paige could not reach Claude (a network problem)." + saved
	case llm.IsTransient(err) && after == 0:
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
