package coaching

import (
	"context"
	"errors"
	"fmt"

	"github.com/paige-dev/paige/internal/llm"
)

// UserMessage turns a model-call error into a sentence the developer can
// act on (the toasts of D68: explain:error, review:error). what names the
// feature ("Explain This", "The review"). Details stay in the server log and
// api_call_log; the message never carries raw API bodies.
func UserMessage(what string, err error) string {
	var (
		apiErr  *llm.APIError
		refusal *llm.RefusalError
		maxTok  *llm.MaxTokensError
		invalid *llm.InvalidReplyError
		timeout *llm.TimeoutError
	)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, llm.ErrNoModel):
		return what + " needs Claude, and no model is configured: set ANTHROPIC_API_KEY and restart Paige."
	case errors.As(err, &timeout):
		return fmt.Sprintf("Claude did not answer %s within %v. Try again.", what, timeout.After)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return what + " was cancelled before Claude answered. Try again."
	case errors.As(err, &refusal):
		return "Claude declined to answer this request. Try a different selection or wording."
	case errors.As(err, &maxTok):
		return "Claude's answer was too long and got cut off. Try a smaller selection."
	case errors.As(err, &invalid):
		return "Claude returned an answer Paige could not read. Try again."
	case errors.As(err, &apiErr):
		// By kind (HTTP status, or error.type for an error inside a
		// stream), never by the error's text.
		switch apiErr.Kind() {
		case llm.KindAuth:
			return "Claude rejected the API key. Check ANTHROPIC_API_KEY."
		case llm.KindRateLimited:
			return "Claude is rate-limiting requests right now. Wait a moment and try again."
		case llm.KindOverloaded, llm.KindUnavailable, llm.KindTimeout:
			return "Claude is unavailable or overloaded right now. Try again in a minute."
		default:
			return what + " failed: Claude rejected the request."
		}
	case llm.IsTransient(err):
		return "Paige could not reach Claude. Check the network connection and try again."
	}
	return what + " failed unexpectedly. Try again."
}

// UserError is a failure of a UI-driven call with a message for the
// developer (the error toasts of D68). Err is the cause, for logs.
type UserError struct {
	Msg string
	Err error
}

// Error returns the message for the developer.
func (e *UserError) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *UserError) Unwrap() error { return e.Err }
