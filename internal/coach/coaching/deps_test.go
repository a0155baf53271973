package coaching

import (
	"context"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/llm"
)

func TestNewDeps(t *testing.T) {
	r := newRig(t)
	client := llm.New(llm.Options{APIKey: "k", BaseURL: r.fake.URL()})
	d := NewDeps("explain", r.st, r.sess, client, nil)
	if d.Logger == nil || d.Store != r.st || d.Session != r.sess || d.LLM != client {
		t.Errorf("NewDeps: %+v", d)
	}
	// Log records the action even when the request's context is cancelled.
	sess := r.start(t, "deps")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d.Log(ctx, coach.ActionExplainRequested, map[string]any{"path": "a.go"})
	r.sess.Flush(context.Background())
	if a, err := r.st.LastAction(context.Background(), sess.ID, coach.ActionExplainRequested); err != nil || !strings.Contains(string(a.Data), "a.go") {
		t.Errorf("logged action: %+v, %v", a, err)
	}

	defer func() {
		if msg, _ := recover().(string); !strings.HasPrefix(msg, "practice: store, session and llm client are required") {
			t.Errorf("NewDeps without a store: panic %q", msg)
		}
	}()
	NewDeps("practice", nil, r.sess, client, nil)
}
