package wsapi

import (
	"context"
	"errors"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/background"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/explain"
	"github.com/paige-dev/paige/internal/coach/practice"
)

// Explainer is Explain This; *explain.Service satisfies it.
type Explainer interface {
	Explain(ctx context.Context, req explain.Request) (explain.Explanation, error)
}

// Reviewer is Practice Review; *practice.Service satisfies it.
type Reviewer interface {
	Review(ctx context.Context, req practice.Request) (practice.Review, error)
}

// Background runs the model calls of story 11 off the connection's read
// loop, so a slow call does not hold up the connection's other messages and
// concurrent requests are answered independently (EC-78, EC-79). Close
// cancels the calls still running and waits for them; their clients get
// the error answer. It is [background.Group]; use [NewBackground].
type Background = background.Group

// NewBackground returns a running Background.
func NewBackground() *Background { return background.New() }

// ExplainHandler handles user:explain (story 11, flow 1): explain:response
// or explain:error {path, error} is broadcast with the request's id. The
// model call is cancelled when the requesting connection closes.
func ExplainHandler(e Explainer, bg *Background) Handler {
	return Handle(func(conn context.Context, req *Request, in UserExplain) error {
		var rng any = in.Range
		if in.Selection != nil {
			rng = in.Selection
		}
		bg.Go(conn, func(ctx context.Context) {
			got, err := e.Explain(ctx, explain.Request{Path: in.Path, Language: in.Language, Range: rng,
				SelectedText: in.SelectedText, SurroundingContext: in.SurroundingContext})
			if err != nil {
				req.Broadcast(TypeExplainError, ExplainError{Path: in.Path, Error: userMessage(err)})
				return
			}
			req.Broadcast(TypeExplainResponse, ExplainResponse{Path: got.Path, Explanation: got.Explanation,
				KeyConcepts: got.KeyConcepts, Analogy: got.Analogy, RelatedFiles: got.RelatedFiles, PhaseConnection: got.PhaseConnection})
		})
		return nil
	})
}

// ReviewHandler handles user:review {kataId, userCode,
// activeConstraintTitles} (story 11, flow 2): review:response or
// review:error {kataId, error}. A missing kataId is INVALID_PAYLOAD.
func ReviewHandler(r Reviewer, bg *Background) Handler {
	return Handle(func(conn context.Context, req *Request, in UserReview) error {
		return review(conn, r, bg, req, practice.Request{KataID: in.KataID, UserCode: in.UserCode,
			ActiveConstraintTitles: in.ActiveConstraintTitles}, TypeReviewResponse)
	})
}

// SubmitSolutionHandler handles practice:submit_solution {kataId, code,
// activeConstraints}: the review flow, answered with
// practice:solution_review carrying review:response's fields, or
// review:error (NOTES.md › practice review).
func SubmitSolutionHandler(r Reviewer, bg *Background) Handler {
	return Handle(func(conn context.Context, req *Request, in PracticeSubmitSolution) error {
		return review(conn, r, bg, req, practice.Request{KataID: in.KataID, UserCode: in.Code,
			ActiveConstraintTitles: in.ActiveConstraints}, TypePracticeSolutionReview)
	})
}

func review(conn context.Context, r Reviewer, bg *Background, req *Request, in practice.Request, answer string) error {
	if strings.TrimSpace(in.KataID) == "" {
		return &Error{Code: CodeInvalidPayload, Message: "kataId is required"}
	}
	bg.Go(conn, func(ctx context.Context) {
		got, err := r.Review(ctx, in)
		if err != nil {
			req.Broadcast(TypeReviewError, ReviewError{KataID: in.KataID, Error: userMessage(err)})
			return
		}
		req.Broadcast(answer, reviewResponse(got))
	})
	return nil
}

func reviewResponse(r practice.Review) ReviewResponse {
	out := ReviewResponse{KataID: r.KataID, Correct: r.Correct, Feedback: r.Feedback, Level: r.Level, Passed: r.Passed,
		DreyfusSignal: r.DreyfusSignal, UnlockedConstraints: make([]Constraint, 0, len(r.UnlockedConstraints))}
	if r.FollowUp != nil {
		out.FollowUp = &FollowUp{Type: r.FollowUp.Type, Constraint: r.FollowUp.Constraint, Reason: r.FollowUp.Reason}
	}
	for _, c := range r.UnlockedConstraints {
		out.UnlockedConstraints = append(out.UnlockedConstraints, constraintOf(c))
	}
	return out
}

func constraintOf(c coach.KataConstraint) Constraint {
	return Constraint{Title: c.Title, Description: c.Description, MinLevel: c.MinLevel}
}

// userMessage is the toast text of a failed call.
func userMessage(err error) string {
	var ue *coaching.UserError
	if errors.As(err, &ue) {
		return ue.Msg
	}
	return "Something went wrong. Try again."
}
