package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"syscall"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
)

// RefusalError is returned when the model stops with stop_reason "refusal"
// (EC-40). Text is whatever the model said before refusing.
type RefusalError struct {
	Model string
	Text  string
}

// Error names the model and what it said.
func (e *RefusalError) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("llm: %s refused to answer", e.Model)
	}
	return fmt.Sprintf("llm: %s refused to answer: %s", e.Model, e.Text)
}

// MaxTokensError is returned when the reply was cut at max_tokens (EC-41,
// EC-45); the caller may retry with a larger MaxTokens.
type MaxTokensError struct {
	Model        string
	MaxTokens    int
	OutputTokens int64
}

// Error says where the reply was cut.
func (e *MaxTokensError) Error() string {
	return fmt.Sprintf("llm: %s reply truncated at max_tokens=%d (%d output tokens)", e.Model, e.MaxTokens, e.OutputTokens)
}

// InvalidReplyError is returned when the reply text is not JSON matching the
// response schema, or the model stopped for a reason Call cannot use.
type InvalidReplyError struct {
	Text   string // the reply text, possibly empty
	Reason string
	Err    error // the decode or validation error, if any
}

// Error gives the reason and the underlying decode or validation error.
func (e *InvalidReplyError) Error() string {
	msg := "llm: reply does not match the response schema: " + e.Reason
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the decode or validation error.
func (e *InvalidReplyError) Unwrap() error { return e.Err }

// APIError is an error answered by the Messages API: an HTTP error status
// (400 invalid_request_error, 401 authentication_error, 403, 404, 429
// rate_limit_error, 500 api_error, 529 overloaded_error, ...) or an SSE
// error event in a stream (StatusCode is then the stream's 200 and Type
// says what failed). [WrapError] never returns a bare *APIError: it returns
// the error type of its kind (*[RateLimitError], *[OverloadedError],
// *[AuthError], *[InvalidRequestError], *[ServerError]), each of which
// unwraps to this *APIError, which unwraps to the SDK's *anthropic.Error.
// Match kinds with errors.As, never with the error text.
type APIError struct {
	StatusCode int
	Type       string        // the API's error.type, e.g. "overloaded_error"
	Message    string        // the API's error.message (never shown to clients)
	RequestID  string        // request-id header
	RetryAfter time.Duration // from retry-after-ms / retry-after; zero when absent
	Err        *anthropic.Error
}

// Error gives the status, the API's error type and message.
func (e *APIError) Error() string {
	return fmt.Sprintf("llm: Anthropic API %d %s: %s", e.StatusCode, e.Type, e.Message)
}

// Unwrap returns the SDK error, nil when there is none.
func (e *APIError) Unwrap() error {
	if e.Err == nil {
		return nil
	}
	return e.Err
}

// Kind returns the kind of the error: by HTTP status, or by error.type for
// an error event inside a stream.
func (e *APIError) Kind() Kind {
	if e.StatusCode >= 400 {
		return StatusKind(e.StatusCode)
	}
	switch e.Type {
	case "rate_limit_error":
		return KindRateLimited
	case "overloaded_error":
		return KindOverloaded
	case "authentication_error", "permission_error":
		return KindAuth
	case "invalid_request_error", "not_found_error", "request_too_large":
		return KindRejected
	case "timeout_error":
		return KindTimeout
	}
	return KindUnavailable // api_error and unknown stream errors
}

// transient reports whether the error is worth a retry: 408, 409, 429,
// 5xx, or a stream error event of those kinds.
func (e *APIError) transient() bool {
	if e.StatusCode >= 400 {
		return transientStatus(e.StatusCode)
	}
	switch e.Kind() {
	case KindRateLimited, KindOverloaded, KindUnavailable, KindTimeout:
		return true
	}
	return false
}

// RateLimitError is a 429 rate_limit_error; RetryAfter says how long the
// API asked to wait. Retried.
type RateLimitError struct{ *APIError }

// OverloadedError is a 529 overloaded_error or a 503. Retried.
type OverloadedError struct{ *APIError }

// AuthError is a 401 authentication_error or 403 permission_error: the
// key is wrong or lacks access. Not retried.
type AuthError struct{ *APIError }

// InvalidRequestError is any other 4xx but 408, 409 and 429 (400
// invalid_request_error, 404 not_found_error for an unknown model, 413
// request_too_large, ...): the request itself is wrong. Not retried.
type InvalidRequestError struct{ *APIError }

// ServerError is a 408, 409 or a 5xx other than 503 and 529 (500 api_error,
// 502, 504), or an api_error event in a stream. Retried.
type ServerError struct{ *APIError }

// Unwrap returns the *APIError.
func (e *RateLimitError) Unwrap() error { return e.APIError }

// Unwrap returns the *APIError.
func (e *OverloadedError) Unwrap() error { return e.APIError }

// Unwrap returns the *APIError.
func (e *AuthError) Unwrap() error { return e.APIError }

// Unwrap returns the *APIError.
func (e *InvalidRequestError) Unwrap() error { return e.APIError }

// Unwrap returns the *APIError.
func (e *ServerError) Unwrap() error { return e.APIError }

// ConnectionError is a failure to reach the API or to read its answer
// (connection refused or reset, unexpected EOF, DNS). Retried.
type ConnectionError struct{ Err error }

// Error says the API could not be reached.
func (e *ConnectionError) Error() string { return "llm: Anthropic API unreachable: " + e.Err.Error() }

// Unwrap returns the network error.
func (e *ConnectionError) Unwrap() error { return e.Err }

// WrapError converts an error of the SDK into Paige's typed errors: an
// *anthropic.Error becomes the kind's type wrapping an *[APIError] (with
// retry-after read), a network failure a *[ConnectionError]; context
// errors, errors already converted and anything else pass unchanged (nil
// stays nil). Every caller of the SDK passes its errors through it.
func WrapError(err error) error {
	if err == nil {
		return nil
	}
	var already *APIError
	var conn *ConnectionError
	if errors.As(err, &already) || errors.As(err, &conn) {
		return err
	}
	var sdkErr *anthropic.Error
	if errors.As(err, &sdkErr) {
		return typed(newAPIError(sdkErr))
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if connectionFailure(err) {
		return &ConnectionError{Err: err}
	}
	return err
}

func newAPIError(sdkErr *anthropic.Error) *APIError {
	e := &APIError{StatusCode: sdkErr.StatusCode, Type: string(sdkErr.Type()), RequestID: sdkErr.RequestID, Err: sdkErr}
	var body struct {
		Error struct{ Message string } `json:"error"`
	}
	if json.Unmarshal([]byte(sdkErr.RawJSON()), &body) == nil {
		e.Message = body.Error.Message
	}
	if e.Message == "" {
		e.Message = sdkErr.RawJSON()
	}
	if sdkErr.Response != nil && sdkErr.StatusCode >= 400 {
		e.RetryAfter, _ = ParseRetryAfter(sdkErr.Response.Header, time.Now())
	}
	return e
}

// typed wraps e in the error type of its kind.
func typed(e *APIError) error {
	if e.StatusCode == 408 || e.StatusCode == 409 {
		return &ServerError{e}
	}
	switch e.Kind() {
	case KindRateLimited:
		return &RateLimitError{e}
	case KindOverloaded:
		return &OverloadedError{e}
	case KindAuth:
		return &AuthError{e}
	case KindRejected:
		return &InvalidRequestError{e}
	}
	return &ServerError{e}
}

// IsTransient reports whether err is worth a retry (the one retry rule of
// [RetryPolicy]): *RateLimitError, *OverloadedError, *ServerError (408,
// 409, 429, any 5xx incl. 529), a stream error event of those kinds, or a
// connection failure. Refusals, max_tokens, invalid replies,
// *AuthError, *InvalidRequestError, ErrNoModel, timeouts and context
// cancellation are not transient.
func IsTransient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.transient()
	}
	var sdkErr *anthropic.Error
	if errors.As(err, &sdkErr) {
		return newAPIError(sdkErr).transient()
	}
	return connectionFailure(err)
}

// connectionFailure reports whether err is a network failure.
func connectionFailure(err error) bool {
	var netErr net.Error
	var urlErr *url.Error
	var conn *ConnectionError
	switch {
	case errors.As(err, &conn), errors.As(err, &netErr), errors.As(err, &urlErr):
		return true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	}
	return false
}

func transientStatus(code int) bool {
	return code == 408 || code == 409 || code == 429 || code >= 500
}
