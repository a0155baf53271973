package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// # Deadlines
//
// Every model call runs under a deadline chosen by its call type, so a model
// that hangs ends with a [*TimeoutError] instead of holding a request open
// for minutes. The deadline bounds the whole call, retries included, and is
// applied as a context deadline: the HTTP request is aborted when it passes.
//
//	call type                                   deadline  why
//	structured short calls (observer_triage,    60 s      Haiku/Sonnet, small JSON replies
//	  memory_retrieval_filter, memory_summarisation,
//	  knowledge_gap_extraction, dreyfus_assessment,
//	  practice_review, issue_assessment)
//	explain_this                                90 s      Sonnet, a page of explanation
//	coach_agent                                 120 s     Sonnet, the largest coaching prompt
//	learning_materials                          180 s     runs up to 10 server-side web searches
//	chat (one reply, learn chat)                120 s     a long free-text reply
//	learn_extract (one transcript chunk)        120 s     a chunk of up to ~100 turns
//	ghostpath_agent (one agent model call)      300 s     Opus, 16k tokens; ANTHROPIC_TIMEOUT_SECONDS
//	chat, learn_extract on Ollama               300 s     local models on a CPU are slow
//
// Any other call type gets [DeadlineStructured]. [Options.Deadlines]
// overrides entries (GhostPath's ANTHROPIC_TIMEOUT_SECONDS sets
// ghostpath_agent; tests set milliseconds).

// The deadlines of the call types (see the table above).
const (
	DeadlineStructured  = 60 * time.Second
	DeadlineExplain     = 90 * time.Second
	DeadlineCoachAgent  = 120 * time.Second
	DeadlineWebSearch   = 180 * time.Second
	DeadlineChat        = 120 * time.Second
	DeadlineExtract     = 120 * time.Second
	DeadlineAgentTurn   = 300 * time.Second
	DeadlineLocalModel  = 300 * time.Second // Ollama chat replies and extraction chunks
	CallTypeChat        = "chat"
	CallTypeExtract     = "learn_extract"
	CallTypeGhostPath   = "ghostpath_agent"
	callTypeExplain     = "explain_this"
	callTypeCoachAgent  = "coach_agent"
	callTypeLearningMat = "learning_materials"
)

// defaultDeadlines maps call types to their deadline; others get
// DeadlineStructured.
var defaultDeadlines = map[string]time.Duration{
	callTypeExplain:     DeadlineExplain,
	callTypeCoachAgent:  DeadlineCoachAgent,
	callTypeLearningMat: DeadlineWebSearch,
	CallTypeChat:        DeadlineChat,
	CallTypeExtract:     DeadlineExtract,
	CallTypeGhostPath:   DeadlineAgentTurn,
}

// DefaultDeadline returns the documented deadline of callType.
func DefaultDeadline(callType string) time.Duration {
	if d, ok := defaultDeadlines[callType]; ok {
		return d
	}
	return DeadlineStructured
}

// ErrTimeout matches every [*TimeoutError] with errors.Is.
var ErrTimeout = errors.New("llm: model call timed out")

// TimeoutError is returned when a model call gets no complete answer within
// its deadline. It matches [ErrTimeout] and context.DeadlineExceeded with
// errors.Is; Err is the error the aborted request returned.
type TimeoutError struct {
	CallType string
	After    time.Duration
	Err      error
}

// Error names the call type and the deadline.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("llm: %s call got no answer within %v", e.CallType, e.After)
}

// Is reports whether target is ErrTimeout or context.DeadlineExceeded.
func (e *TimeoutError) Is(target error) bool {
	return target == ErrTimeout || target == context.DeadlineExceeded
}

// Unwrap returns the aborted request's error.
func (e *TimeoutError) Unwrap() error { return e.Err }

// Deadline returns the deadline of callType: the client's override, else
// [DefaultDeadline]. A nil Client gives the default.
func (c *Client) Deadline(callType string) time.Duration {
	if c != nil {
		if d, ok := c.deadlines[callType]; ok && d > 0 {
			return d
		}
	}
	return DefaultDeadline(callType)
}

// WithDeadline returns ctx bounded by the deadline of callType (see
// [Client.Deadline]). When it passes, the context's cause is a
// *TimeoutError, which [TimeoutCause] turns the call's error into. Callers
// of the SDK use it around each model call; [Call] applies it itself.
func (c *Client) WithDeadline(ctx context.Context, callType string) (context.Context, context.CancelFunc) {
	return WithDeadline(ctx, callType, c.Deadline(callType))
}

// WithDeadline returns ctx bounded by d for a call of callType, with a
// *TimeoutError as the cause when d passes; for model calls that do not go
// through a [Client] (Ollama). d <= 0 means DefaultDeadline(callType).
func WithDeadline(ctx context.Context, callType string, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		d = DefaultDeadline(callType)
	}
	return context.WithTimeoutCause(ctx, d, &TimeoutError{CallType: callType, After: d})
}

// TimeoutCause returns err as a *TimeoutError when ctx (from
// [Client.WithDeadline]) ended because its deadline passed, and err
// unchanged otherwise (nil stays nil; a cancelled parent is not a timeout).
func TimeoutCause(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		return err
	}
	if errors.As(context.Cause(ctx), &te) {
		return &TimeoutError{CallType: te.CallType, After: te.After, Err: err}
	}
	return err
}
