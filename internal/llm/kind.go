package llm

import (
	"context"
	"errors"

	"github.com/anthropics/anthropic-sdk-go"
)

// Kind is what went wrong with a model call, in terms a user can act on.
// Clients see [Kind.Message], never the upstream error text: provider error
// bodies can carry request details, account data or prompt fragments, so
// they are logged server-side only.
type Kind string

// The kinds of model failure.
const (
	KindNone        Kind = ""             // not an error
	KindNoModel     Kind = "no_model"     // no API key / model configured
	KindTimeout     Kind = "timeout"      // no answer within the deadline
	KindCancelled   Kind = "cancelled"    // the caller went away
	KindRefused     Kind = "refused"      // stop_reason refusal
	KindTruncated   Kind = "truncated"    // stop_reason max_tokens
	KindInvalid     Kind = "invalid"      // reply not in the expected shape
	KindRateLimited Kind = "rate_limited" // 429
	KindOverloaded  Kind = "overloaded"   // 529, 503
	KindAuth        Kind = "auth"         // 401, 403
	KindRejected    Kind = "rejected"     // other 4xx
	KindUnavailable Kind = "unavailable"  // other 5xx, 409, connection failures
	KindUnknown     Kind = "unknown"      // anything else
)

// KindError is implemented by errors of other model providers (e.g. Ollama)
// that know their kind; [Classify] asks them first.
type KindError interface {
	error
	ModelErrorKind() Kind
}

// Classify returns the kind of a model call's error.
func Classify(err error) Kind {
	var (
		ke      KindError
		refusal *RefusalError
		maxTok  *MaxTokensError
		invalid *InvalidReplyError
		apiErr  *APIError
		sdkErr  *anthropic.Error
	)
	switch {
	case err == nil:
		return KindNone
	case errors.As(err, &ke):
		return ke.ModelErrorKind()
	case errors.Is(err, ErrNoModel):
		return KindNoModel
	case errors.Is(err, ErrTimeout):
		return KindTimeout
	case errors.Is(err, context.Canceled):
		return KindCancelled
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	case errors.As(err, &refusal):
		return KindRefused
	case errors.As(err, &maxTok):
		return KindTruncated
	case errors.As(err, &invalid):
		return KindInvalid
	case errors.As(err, &apiErr):
		return apiErr.Kind()
	case errors.As(err, &sdkErr):
		return newAPIError(sdkErr).Kind()
	case IsTransient(err):
		return KindUnavailable
	}
	return KindUnknown
}

// StatusKind returns the kind of an HTTP error status of a model API.
func StatusKind(status int) Kind {
	switch {
	case status == 401 || status == 403:
		return KindAuth
	case status == 429:
		return KindRateLimited
	case status == 529 || status == 503:
		return KindOverloaded
	case status == 408 || status == 504:
		return KindTimeout
	case status >= 500 || status == 409:
		return KindUnavailable
	case status >= 400:
		return KindRejected
	}
	return KindUnknown
}

// Message is the client-facing sentence for k: what happened and what to
// do, with no upstream detail.
func (k Kind) Message() string {
	switch k {
	case KindNone:
		return ""
	case KindNoModel:
		return "No model is configured: set ANTHROPIC_API_KEY (or choose an Ollama model) and restart Paige."
	case KindTimeout:
		return "The model did not answer in time. Try again."
	case KindCancelled:
		return "The request was cancelled before the model answered."
	case KindRefused:
		return "The model declined to answer this request. Try different wording."
	case KindTruncated:
		return "The model's answer was too long and got cut off. Try a smaller request."
	case KindInvalid:
		return "The model returned an answer Paige could not read. Try again."
	case KindRateLimited:
		return "The model provider is rate-limiting requests. Wait a moment and try again."
	case KindOverloaded:
		return "The model provider is overloaded right now. Try again in a minute."
	case KindAuth:
		return "The model provider rejected the API key. Check ANTHROPIC_API_KEY."
	case KindRejected:
		return "The model provider rejected the request."
	case KindUnavailable:
		return "The model provider is unreachable or failing right now. Try again in a minute."
	}
	return "The model call failed unexpectedly. Try again."
}

// UserMessage is Classify(err).Message(): the text a client may see for a
// failed model call.
func UserMessage(err error) string { return Classify(err).Message() }
