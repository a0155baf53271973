package wsapi

import (
	"context"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/observer"
)

type muterFunc func(ctx context.Context, muted bool) error

func (f muterFunc) SetMuted(ctx context.Context, muted bool) error { return f(ctx, muted) }

// observer:mute reaches the Observer's toggle (its absence is no error for
// the editor), and the Observer's notices reach every editor as
// observer:status and observer:nudge.
func TestObserverAdapter(t *testing.T) {
	muted := make(chan bool, 2)
	h := newHarness(t, Options{Log: testLog(t), Extensions: Extensions{ObserverMute: ObserverMuteHandler(muterFunc(
		func(_ context.Context, m bool) error { muted <- m; return observer.ErrNoObserver }))}})
	a, b := h.dial(t), h.dial(t)
	a.send(TypeObserverMute, map[string]any{"muted": true})
	if got := <-muted; !got {
		t.Errorf("SetMuted(%v), want true", got)
	}

	n := ObserverNotifier{Hub: h.srv.Hub()}
	last := "2026-02-01T12:00:00.000Z"
	n.Status(observer.Status{Active: true, Muted: true, LastEvaluation: &last})
	n.Nudge(observer.Nudge{Signal: "idle", Confidence: 0.5, Context: map[string]any{"file": "a.go"}})
	for _, c := range []*client{a, b} {
		if env := c.expect(TypeObserverStatus, nil); string(env.Payload) != `{"active":true,"muted":true,"lastEvaluation":"2026-02-01T12:00:00.000Z"}` {
			t.Errorf("observer:status payload %s", env.Payload)
		}
		if env := c.expect(TypeObserverNudge, nil); string(env.Payload) != `{"signal":"idle","confidence":0.5,"context":{"file":"a.go"}}` {
			t.Errorf("observer:nudge payload %s", env.Payload)
		}
	}
	a.quiet(200 * time.Millisecond)
}
