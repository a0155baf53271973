package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
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

// APIError is an HTTP error answered by the Messages API: 400
// invalid_request_error, 401 authentication_error, 403, 404, 429
// rate_limit_error, 500 api_error, 529 overloaded_error, ... It unwraps to the
// SDK's *anthropic.Error.
type APIError struct {
	StatusCode int
	Type       string        // the API's error.type, e.g. "overloaded_error"
	Message    string        // the API's error.message
	RequestID  string        // request-id header
	RetryAfter time.Duration // from retry-after; zero when absent
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

// wrapSDKError turns SDK errors into *APIError; other errors pass unchanged.
func wrapSDKError(err error) error {
	var sdkErr *anthropic.Error
	if !errors.As(err, &sdkErr) {
		return err
	}
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
	if sdkErr.Response != nil {
		if s, err := strconv.Atoi(sdkErr.Response.Header.Get("retry-after")); err == nil && s > 0 {
			e.RetryAfter = time.Duration(s) * time.Second
		}
	}
	return e
}

// IsTransient reports whether err is worth one retry: 408, 409, 429, any 5xx
// (incl. 529 overloaded), or a connection failure. Refusals, max_tokens,
// invalid replies, 400/401/403/404, ErrNoModel and context cancellation are
// not transient.
func IsTransient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return transientStatus(apiErr.StatusCode)
	}
	var sdkErr *anthropic.Error
	if errors.As(err, &sdkErr) {
		return transientStatus(sdkErr.StatusCode)
	}
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case errors.As(err, &netErr), errors.As(err, &urlErr):
		return true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET):
		return true
	}
	return false
}

func transientStatus(code int) bool {
	return code == 408 || code == 409 || code == 429 || code >= 500
}
