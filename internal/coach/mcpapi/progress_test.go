package mcpapi

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
)

// Issue 13: phase changes and hints shown write progress_events, which the
// session state's progress item (and the dashboard's hintsUsed) read.
func TestProgressEventsRecorded(t *testing.T) {
	h := newHarness(t)
	sess := h.start(t)
	h.plan(t, sess)
	for _, c := range []struct {
		tool string
		args any
	}{
		{"paige_update_phase", PhaseIn{Phase: 1, Status: coach.PhaseActive}},
		{"paige_highlight_lines", map[string]any{"path": "src/auth.ts", "start": 1, "end": 1, "style": "hint"}},
		{"paige_hint_files", map[string]any{"paths": []string{"src/auth.ts"}, "style": "suggested"}},
		{"paige_update_phase", PhaseIn{Phase: 1, Status: coach.PhaseComplete}},
		{"paige_update_phase", PhaseIn{Phase: 1, Status: coach.PhaseComplete}}, // no change: nothing recorded
	} {
		if msg := h.call(t, c.tool, c.args, nil); msg != "" {
			t.Fatalf("%s: %s", c.tool, msg)
		}
	}
	var state struct {
		Progress []struct {
			EventType string          `json:"eventType"`
			Data      json.RawMessage `json:"data"`
		} `json:"progress"`
	}
	h.call(t, "paige_get_session_state", StateIn{Include: []string{"progress"}}, &state)
	var got []string
	for _, e := range state.Progress {
		got = append(got, e.EventType)
	}
	want := []string{"phase_started", "hint_level_changed", "hint_used", "hint_used", "phase_completed"}
	if !slices.Equal(got, want) {
		t.Errorf("progress = %v, want %v", got, want)
	}
}

// Without a plan, hints record no progress and still work.
func TestProgressWithoutPlan(t *testing.T) {
	h := newHarness(t)
	h.start(t)
	if msg := h.call(t, "paige_hint_files", map[string]any{"paths": []string{"src/auth.ts"}}, nil); msg != "" {
		t.Fatal(msg)
	}
}
