package observer

import (
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
)

// Issue 13: 40 buffer updates inside the cooldown are 8 triggers (every 5th
// update) and one nudge_suppressed row for the stretch, not one per trigger
// (40 updates used to give 31 rows); once an evaluation ran, the next
// suppressed stretch is logged again.
func TestSuppressedOncePerStretch(t *testing.T) {
	h := newHarness(t)
	h.llm.Enqueue(triage(true, 0.85, "wrong_file"))
	h.act(t, coach.ActionFileOpen, map[string]any{"path": "a.ts"})
	h.waitEval(t)
	h.clock.Advance(30 * time.Second)
	for range 40 {
		h.edit(t)
	}
	h.noEval(t, 1)
	if sup := h.actions(t, coach.ActionNudgeSuppressed); len(sup) != 1 || data(t, sup[0])["reason"] != "cooldown" {
		t.Fatalf("nudge_suppressed after 40 updates in the cooldown: got %d rows %v, want one cooldown row", len(sup), sup)
	}

	h.clock.Advance(2 * time.Minute) // the cooldown is over: evaluated again, no nudge
	h.llm.Enqueue(triage(false, 0.2, "no_nudge"))
	h.act(t, coach.ActionFileSave, map[string]any{"path": "a.ts"})
	h.waitEval(t)
	h.clock.Advance(2 * time.Minute)
	h.llm.Enqueue(triage(true, 0.9, "wrong_file"))
	h.act(t, coach.ActionFileSave, map[string]any{"path": "a.ts"})
	h.waitEval(t)
	h.clock.Advance(10 * time.Second)
	for range 10 {
		h.edit(t)
	}
	h.noEval(t, 3)
	if sup := h.actions(t, coach.ActionNudgeSuppressed); len(sup) != 2 {
		t.Fatalf("nudge_suppressed after a second stretch: got %d rows, want 2", len(sup))
	}
}
