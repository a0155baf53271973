package wsapi

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/explain"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

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
