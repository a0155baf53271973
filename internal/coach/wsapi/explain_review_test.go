package wsapi

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/explain"
	"github.com/paige-dev/paige/internal/coach/practice"
	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
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

// explainHarness serves user:explain with the real explain.Service on the
// llmtest fake, the explain_this deadline set to deadline.
func explainHarness(t *testing.T, deadline time.Duration) (*harness, *llmtest.Server) {
	t.Helper()
	fake := llmtest.NewServer(t)
	bg := NewBackground()
	t.Cleanup(func() { bg.Close(context.Background()) })
	var svc atomic.Pointer[explain.Service] // set once the harness built the store
	lazy := explainerFunc(func(ctx context.Context, r explain.Request) (explain.Explanation, error) {
		return svc.Load().Explain(ctx, r)
	})
	h := newHarness(t, Options{Extensions: Extensions{Explain: ExplainHandler(lazy, bg)}})
	client := llm.New(llm.Options{APIKey: "k", BaseURL: fake.URL(), Retry: llm.RetryPolicy{BaseDelay: time.Millisecond},
		Deadlines: map[string]time.Duration{"explain_this": deadline}})
	svc.Store(explain.New(h.st, h.sess, client, nil))
	return h, fake
}

type explainerFunc func(context.Context, explain.Request) (explain.Explanation, error)

func (f explainerFunc) Explain(ctx context.Context, r explain.Request) (explain.Explanation, error) {
	return f(ctx, r)
}

var explainReq = map[string]any{"path": "main.go", "language": "go", "selectedText": "func main() {}"}

// A hanging model, a refusal, a truncated reply and an upstream error each
// answer explain:error with a clean message.
func TestExplainModelFaults(t *testing.T) {
	const secret = "SECRET-MARKER-acct_8f3e"
	// Only the hanging model waits for the deadline; the others answer at
	// once, so theirs is generous (a loaded machine must not turn them into
	// timeouts).
	tests := []struct {
		name     string
		resp     llmtest.Response
		deadline time.Duration
		want     string
	}{
		{"hang", llmtest.Hang(), 100 * time.Millisecond, "Claude did not answer Explain This within 100ms. Try again."},
		{"refusal", llmtest.Text(secret).WithStop("refusal"), time.Minute, "Claude declined to answer this request. Try a different selection or wording."},
		{"max_tokens", llmtest.Text(`{"explanation":"` + secret).WithStop("max_tokens"), time.Minute, "Claude's answer was too long and got cut off. Try a smaller selection."},
		{"400", llmtest.Error(400, "invalid_request_error", secret), time.Minute, "Explain This failed: Claude rejected the request."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, fake := explainHarness(t, tt.deadline)
			fake.Handle(func(llmtest.Request) llmtest.Response { return tt.resp })
			c := h.dial(t)
			c.send(TypeUserExplain, explainReq)
			var e ExplainError
			c.expect(TypeExplainError, &e)
			if e.Path != "main.go" || e.Error != tt.want || strings.Contains(e.Error, secret) {
				t.Errorf("explain:error = %+v, want %q", e, tt.want)
			}
		})
	}
}

// Closing the connection cancels its explain call.
func TestExplainCancelledWhenConnectionCloses(t *testing.T) {
	h, fake := explainHarness(t, time.Minute)
	fake.Enqueue(llmtest.Hang())
	c := h.dial(t)
	c.send(TypeUserExplain, explainReq)
	fake.WaitRequests(t, 1, 10*time.Second)
	c.ws.CloseNow()
	fake.WaitCancelled(t, 1, 10*time.Second)
}
