// Package explain is Paige's "Explain This" (spec story 11, flow 1): the
// developer highlights code in the editor and Sonnet explains it at their
// Dreyfus stage, connected to the coaching phase they are on.
//
// [Service.Explain] logs explain_requested, enriches the request with
// server-side state (the Dreyfus stage that fits the file's language,
// default novice; the current phase of the active session's plan, if any),
// calls Sonnet through llm.Call (retries under the client's policy on transient
// errors, D68; every attempt in api_call_log) and logs explain_completed
// {path, model, latency_ms, success, error?} (D72). Failures come back as a
// *coaching.UserError whose message is fit for a toast (explain:error).
// Without an active session it still works: actions are not logged
// (EC-17) and the phase context is null (scenario 11.3).
package explain

import (
	"context"
	"errors"
	"log/slog"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/coach/prompts/explainthis"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
)

// MsgBinary is the answer for a binary selection (EC-75).
const MsgBinary = "Cannot explain binary files"

// Request is one user:explain.
type Request struct {
	Path               string
	Language           string
	Range              any // the selection as the client sent it; logged with explain_requested
	SelectedText       string
	SurroundingContext string
}

// Explanation is explain:response's content (D73, D74: Analogy,
// RelatedFiles and PhaseConnection are nil when the model gives none).
type Explanation struct {
	Path            string
	Explanation     string
	KeyConcepts     []string // never nil
	Analogy         *string
	RelatedFiles    []string
	PhaseConnection *string
}

// Service explains code. It is safe for concurrent use (EC-78).
type Service struct {
	deps coaching.Deps
}

// New returns a Service; st, sess and client are required (it panics
// otherwise, a wiring bug); a nil logger discards.
func New(st *store.Store, sess *session.Service, client *llm.Client, logger *slog.Logger) *Service {
	return &Service{deps: coaching.NewDeps("explain", st, sess, client, logger)}
}

// Explain runs the flow. The error, if any, is a *coaching.UserError.
func (s *Service) Explain(ctx context.Context, req Request) (Explanation, error) {
	s.deps.Log(ctx, coach.ActionExplainRequested, map[string]any{"path": req.Path, "range": req.Range})
	if Binary(req.SelectedText) || Binary(req.SurroundingContext) {
		return Explanation{}, s.fail(ctx, req.Path, 0, &coaching.UserError{Msg: MsgBinary, Err: errors.New("binary selection")})
	}
	assessments, _ := s.deps.Store.DreyfusAssessments(ctx) // none readable: novice
	stage := coaching.StageFor(assessments, req.Language+" "+strings.TrimPrefix(path.Ext(req.Path), "."))
	sessionID := s.deps.Session.ActiveID()
	user := explainthis.Assemble(req.SelectedText, req.SurroundingContext, req.Path, req.Language, s.phase(ctx, sessionID))
	start := time.Now()
	resp, _, err := llm.Call[explainthis.Response](ctx, s.deps.LLM, explainthis.Request(sessionID, string(stage), user))
	took := time.Since(start)
	if err != nil {
		return Explanation{}, s.fail(ctx, req.Path, took, &coaching.UserError{Msg: coaching.UserMessage("Explain This", err), Err: err})
	}
	s.deps.Log(ctx, coach.ActionExplainCompleted, map[string]any{"path": req.Path, "model": s.deps.LLM.Model(explainthis.Tier),
		"latency_ms": took.Milliseconds(), "success": true})
	return Explanation{Path: req.Path, Explanation: resp.Explanation, KeyConcepts: prompts.List(resp.KeyConcepts),
		Analogy: resp.Analogy, RelatedFiles: resp.RelatedFiles, PhaseConnection: resp.PhaseConnection}, nil
}

// phase returns the current phase of the session's newest plan (FR-153), or
// nil without a session, plan or phases.
func (s *Service) phase(ctx context.Context, sessionID string) *explainthis.Phase {
	if sessionID == "" {
		return nil
	}
	_, phases, ok, err := s.deps.Session.Plan(ctx, sessionID)
	if err != nil || !ok {
		return nil
	}
	ph, ok := session.CurrentPhase(phases)
	if !ok {
		return nil
	}
	return &explainthis.Phase{Number: ph.Number, Title: ph.Title, Description: ph.Description}
}

func (s *Service) fail(ctx context.Context, path string, took time.Duration, e *coaching.UserError) error {
	s.deps.Log(ctx, coach.ActionExplainCompleted, map[string]any{"path": path, "model": s.deps.LLM.Model(explainthis.Tier),
		"latency_ms": took.Milliseconds(), "success": false, "error": e.Msg})
	return e
}

// Binary reports whether text looks like binary content: it has a NUL byte
// or is not valid UTF-8 (EC-75).
func Binary(text string) bool {
	return strings.IndexByte(text, 0) >= 0 || !utf8.ValidString(text)
}
