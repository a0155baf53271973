package observertriage_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
)

func validReply() map[string]any {
	return map[string]any{
		"should_nudge": true, "confidence": 0.85, "signal": "wrong_file", "reasoning": "editing auth.ts",
		"suggested_context": map[string]any{"current_file": "src/auth.ts", "expected_file": "src/oauth.ts", "time_in_file": "3m12s", "phase_description": nil},
	}
}

func TestSchema(t *testing.T) {
	pt.Required[observertriage.Response](t, "", "should_nudge", "confidence", "signal", "reasoning", "suggested_context")
	pt.Required[observertriage.Response](t, "suggested_context", "current_file", "expected_file", "time_in_file", "phase_description")
	pt.Enum[observertriage.Response](t, "signal", false, "wrong_file", "scope_drift", "idle", "phase_complete", "edit_loop", "no_nudge")
	pt.Range[observertriage.Response](t, "confidence", pt.F(0), pt.F(1))
	got := pt.Valid[observertriage.Response](t, validReply())
	if *got.SuggestedContext.CurrentFile != "src/auth.ts" || got.SuggestedContext.PhaseDescription != nil {
		t.Errorf("decoded: got %+v", got)
	}
	for field, v := range map[string]any{"signal": "typo", "confidence": -0.1, "should_nudge": "yes"} {
		bad := pt.Clone(validReply())
		bad[field] = v
		pt.Invalid[observertriage.Response](t, bad)
	}
}

func TestNudge(t *testing.T) {
	tests := []struct {
		should bool
		conf   float64
		want   bool
	}{{true, 0.7, true}, {true, 0.69, false}, {false, 0.99, false}, {true, 1, true}}
	for _, tt := range tests {
		if got := (observertriage.Response{ShouldNudge: tt.should, Confidence: tt.conf}).Nudge(); got != tt.want {
			t.Errorf("Nudge(%v, %v): got %v, want %v", tt.should, tt.conf, got, tt.want)
		}
	}
}

func TestAssemble(t *testing.T) {
	ctx := observertriage.Context{
		CurrentPhase:       &observertriage.Phase{Number: 1, Title: "Find", Description: "find handler", ExpectedFiles: []string{"src/oauth.ts"}},
		RecentActions:      []observertriage.Action{{Type: "file_open", Path: "src/auth.ts", Ago: "3m ago"}, {Type: "user_idle_start", Ago: "1m ago"}},
		TimeSinceLastSave:  "5m",
		TimeSinceLastNudge: "never",
		UserIdle:           true,
	}
	got := pt.Decode(t, observertriage.Assemble(ctx))
	want := map[string]any{
		"current_phase":         map[string]any{"number": float64(1), "title": "Find", "description": "find handler", "expected_files": []any{"src/oauth.ts"}},
		"recent_actions":        []any{map[string]any{"type": "file_open", "path": "src/auth.ts", "ago": "3m ago"}, map[string]any{"type": "user_idle_start", "ago": "1m ago"}},
		"time_since_last_save":  "5m",
		"time_since_last_nudge": "never",
		"dreyfus_stage":         "novice",
		"user_idle":             true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	noPhase := pt.Decode(t, observertriage.Assemble(observertriage.Context{DreyfusStage: "expert"}))
	if noPhase["current_phase"] != nil || noPhase["dreyfus_stage"] != "expert" {
		t.Errorf("no phase: got %v", noPhase)
	}
}

func TestAssembleKeepsLast20Actions(t *testing.T) {
	var actions []observertriage.Action
	for i := range 30 {
		actions = append(actions, observertriage.Action{Type: fmt.Sprint("t", i), Ago: "now"})
	}
	got := pt.Decode(t, observertriage.Assemble(observertriage.Context{RecentActions: actions}))["recent_actions"].([]any)
	if len(got) != 20 || got[0].(map[string]any)["type"] != "t10" {
		t.Errorf("recent_actions: got %d starting %v, want 20 starting t10", len(got), got[0])
	}
}
