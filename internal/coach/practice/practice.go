// Package practice is Paige's Practice Review (spec story 11, flow 2): the
// developer submits a kata solution and Sonnet reviews it against the
// kata's hidden instructor notes and the constraints they opted into.
//
// [Service.Review] logs review_requested, loads the kata from SQLite (never
// from the client, D69; a missing kata is answered "Kata not found" without
// a model call), looks up the Dreyfus stage of the kata's knowledge-gap
// topic (default novice), resolves the active constraint titles (unknown
// ones ignored, EC-77), sends the earlier attempts made with the same
// constraint set (D75), and calls Sonnet through llm.Call, which retries (D68).
// Only a successful review is appended to kata_specs.user_attempts
// (FR-157, FR-167); the response lists the constraints the new level
// unlocked. review_completed {kataId, level, passed, model, latency_ms,
// success, error?} is logged after every model call (D72). Katas are never
// marked completed (D71).
//
// The same flow answers user:review and practice:submit_solution
// (NOTES.md › practice review). Without an active session it still works
// (EC-80): actions are not logged (EC-17).
package practice

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
)

// MsgKataNotFound is the answer for an unknown kata (scenario 11.9).
const MsgKataNotFound = "Kata not found"

// Request is one user:review (or practice:submit_solution).
type Request struct {
	KataID                 string
	UserCode               string
	ActiveConstraintTitles []string
}

// Review is review:response's content.
type Review struct {
	KataID              string
	Correct             bool
	Feedback            string
	Level               int
	Passed              bool
	FollowUp            *practicereview.FollowUp
	DreyfusSignal       string
	UnlockedConstraints []coach.KataConstraint // never nil
	Attempts            int                    // attempts stored after this one; 0 if it could not be stored
}

// Service reviews kata solutions. It is safe for concurrent use; two
// reviews of one kata both append their attempt (EC-79).
type Service struct {
	deps coaching.Deps
}

// New returns a Service; st, sess and client are required (it panics
// otherwise, a wiring bug); a nil logger discards.
func New(st *store.Store, sess *session.Service, client *llm.Client, logger *slog.Logger) *Service {
	return &Service{deps: coaching.NewDeps("practice", st, sess, client, logger)}
}

// Review runs the flow. The error, if any, is a *coaching.UserError.
func (s *Service) Review(ctx context.Context, req Request) (Review, error) {
	s.deps.Log(ctx, coach.ActionReviewRequested, map[string]any{"kataId": req.KataID,
		"activeConstraintTitles": req.ActiveConstraintTitles})
	kata, err := s.deps.Store.Kata(ctx, req.KataID)
	if errors.Is(err, store.ErrNotFound) {
		return Review{}, &coaching.UserError{Msg: MsgKataNotFound, Err: err}
	}
	if err != nil {
		s.deps.Logger.Error("practice review: cannot load kata", "kata", req.KataID, "err", err)
		return Review{}, &coaching.UserError{Msg: "Paige could not load this kata. Try again.", Err: err}
	}
	stage := coaching.StageFor(s.assessments(ctx), s.gapTopic(ctx, kata.KnowledgeGapID))
	active := ResolveConstraints(kata.Constraints, req.ActiveConstraintTitles)
	user := practicereview.Assemble(kata.Description, kata.InstructorNotes, promptConstraints(active), req.UserCode,
		SameConstraintAttempts(kata.UserAttempts, active))
	start := time.Now()
	resp, _, err := llm.Call[practicereview.Response](ctx, s.deps.LLM, practicereview.Request(s.deps.Session.ActiveID(), string(stage), user))
	took := time.Since(start)
	if err != nil {
		ue := &coaching.UserError{Msg: coaching.UserMessage("The review", err), Err: err}
		s.deps.Log(ctx, coach.ActionReviewCompleted, map[string]any{"kataId": kata.ID, "level": nil, "passed": nil,
			"model": s.deps.LLM.Model(practicereview.Tier), "latency_ms": took.Milliseconds(), "success": false, "error": ue.Msg})
		return Review{}, ue
	}
	out := Review{KataID: kata.ID, Correct: resp.Correct, Feedback: resp.Feedback, Level: resp.Level, Passed: resp.Passed,
		FollowUp: resp.FollowUp, DreyfusSignal: resp.DreyfusSignal,
		UnlockedConstraints: UnlockedConstraints(kata.Constraints, BestLevel(kata.UserAttempts), resp.Level)}
	feedback, level, passed := resp.Feedback, resp.Level, resp.Passed
	out.Attempts, err = s.deps.Store.AppendKataAttempt(context.WithoutCancel(ctx), kata.ID, coach.KataAttempt{Code: req.UserCode,
		Review: &feedback, Level: &level, Passed: &passed, Constraints: active})
	if err != nil {
		s.deps.Logger.Error("practice review: attempt not stored", "kata", kata.ID, "err", err)
	}
	if resp.Passed { // a passed kata covers its knowledge gap
		if err := s.deps.Store.SetGapAddressed(context.WithoutCancel(ctx), kata.KnowledgeGapID, true); err != nil {
			s.deps.Logger.Error("practice review: gap not marked addressed", "gap", kata.KnowledgeGapID, "err", err)
		}
	}
	s.deps.Log(ctx, coach.ActionReviewCompleted, map[string]any{"kataId": kata.ID, "level": resp.Level, "passed": resp.Passed,
		"model": s.deps.LLM.Model(practicereview.Tier), "latency_ms": took.Milliseconds(), "success": true})
	return out, nil
}

func (s *Service) assessments(ctx context.Context) []coach.DreyfusAssessment {
	list, err := s.deps.Store.DreyfusAssessments(ctx)
	if err != nil {
		s.deps.Logger.Warn("practice review: Dreyfus assessments unavailable, assuming novice", "err", err)
	}
	return list
}

// gapTopic reads the topic of the kata's knowledge gap, "" when unknown.
func (s *Service) gapTopic(ctx context.Context, gapID string) string {
	var topic string
	err := s.deps.Store.DB().QueryRowContext(ctx, `SELECT topic FROM knowledge_gaps WHERE id = ?`, gapID).Scan(&topic)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		s.deps.Logger.Warn("practice review: knowledge gap unavailable", "gap", gapID, "err", err)
	}
	return strings.TrimSpace(topic)
}

// Kata returns the kata with id for the practice view: description,
// scaffolding, constraints and attempts, without the hidden instructor
// notes. It needs no model. An unknown id is a *coaching.UserError
// carrying [MsgKataNotFound].
func (s *Service) Kata(ctx context.Context, id string) (coach.KataSpec, error) {
	kata, err := s.deps.Store.Kata(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return coach.KataSpec{}, &coaching.UserError{Msg: MsgKataNotFound, Err: err}
	}
	if err != nil {
		s.deps.Logger.Error("practice: cannot load kata", "kata", id, "err", err)
		return coach.KataSpec{}, &coaching.UserError{Msg: "Paige could not load this kata. Try again.", Err: err}
	}
	kata.InstructorNotes = ""
	return kata, nil
}
