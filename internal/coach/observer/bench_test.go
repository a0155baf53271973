package observer

import (
	"context"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
)

// BenchmarkSuppression measures the pure path from a trigger event to the
// suppression decision: record the activity in the flow window, classify
// the trigger, run the checks. Target: ≤ 50 µs.
func BenchmarkSuppression(b *testing.B) {
	now := time.Date(2026, 2, 11, 12, 0, 0, 0, time.UTC)
	s := State{Active: true, LastNudge: now.Add(-time.Hour), Recent: burst(9, now)}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		at := now.Add(time.Duration(i) * 7 * time.Second)
		if s.Observe(coach.ActionFileSave, at) == TriggerNone {
			b.Fatal("file_save did not trigger")
		}
		_ = Suppress(&s, at)
	}
}

// BenchmarkSuppressionThroughBus measures the same decision as the running
// Observer makes it: publish on the event bus, the session loop receives
// the event, applies it and decides (muted, so no model call and no row).
func BenchmarkSuppressionThroughBus(b *testing.B) {
	h := newHarness(b)
	if err := h.m.SetMuted(context.Background(), true); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		h.bus.Publish(actionlog.Event{Type: coach.ActionFileSave, SessionID: h.sid})
		h.sync(b)
	}
}
