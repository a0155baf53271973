package wsapi

import (
	"context"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/practice"
	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
)

type reviewerFunc func(context.Context, practice.Request) (practice.Review, error)

func (f reviewerFunc) Review(ctx context.Context, r practice.Request) (practice.Review, error) {
	return f(ctx, r)
}

// The handlers answer over the protocol: practice:solution_review carries
// review:response's fields; a failure is review:error with the user message.
func TestSubmitSolutionHandler(t *testing.T) {
	bg := NewBackground()
	t.Cleanup(func() { bg.Close(context.Background()) })
	reqs := make(chan practice.Request, 2)
	rev := reviewerFunc(func(_ context.Context, r practice.Request) (practice.Review, error) {
		reqs <- r
		if r.KataID == "missing" {
			return practice.Review{}, &coaching.UserError{Msg: practice.MsgKataNotFound}
		}
		return practice.Review{KataID: r.KataID, Level: 4, Passed: true, Feedback: "f", DreyfusSignal: "stable",
			FollowUp:            &practicereview.FollowUp{Type: "retry_hint", Reason: "r"},
			UnlockedConstraints: []coach.KataConstraint{{Title: "B", Description: "b", MinLevel: 3}}}, nil
	})
	h := newHarness(t, Options{Extensions: Extensions{SubmitSolution: SubmitSolutionHandler(rev, bg)}})
	c := h.dial(t)
	c.send(TypePracticeSubmitSolution, map[string]any{"kataId": "k1", "code": "x", "activeConstraints": []string{"A"}})
	var resp ReviewResponse
	c.expect(TypePracticeSolutionReview, &resp)
	if resp.KataID != "k1" || resp.Level != 4 || resp.FollowUp == nil || resp.FollowUp.Type != "retry_hint" ||
		len(resp.UnlockedConstraints) != 1 || resp.UnlockedConstraints[0].MinLevel != 3 {
		t.Errorf("solution_review = %+v", resp)
	}
	if got := <-reqs; got.UserCode != "x" || len(got.ActiveConstraintTitles) != 1 {
		t.Errorf("request = %+v", got)
	}
	c.send(TypePracticeSubmitSolution, map[string]any{"kataId": "missing", "code": "x"})
	var e ReviewError
	c.expect(TypeReviewError, &e)
	if e != (ReviewError{KataID: "missing", Error: "Kata not found"}) {
		t.Errorf("review:error = %+v", e)
	}
}
