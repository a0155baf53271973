package knowledgegaps_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
)

func validReply() map[string]any {
	return map[string]any{
		"knowledge_gaps": []any{map[string]any{"topic": "async/await", "evidence": "3 hints", "severity": "high", "related_concepts": []any{"promises"}}},
		"kata_specs": []any{map[string]any{"title": "Await all", "description": "d", "scaffolding_code": "function f() {}",
			"test_cases": []any{"t1"}, "constraints": []any{"no loops"}, "follow_up_constraint": nil}},
		"session_summary": map[string]any{"phases_completed": 2, "total_time_minutes": 34.5, "hints_used": 3, "independent_completions": 1},
	}
}

func TestSchema(t *testing.T) {
	pt.Required[knowledgegaps.Response](t, "", "knowledge_gaps", "kata_specs", "session_summary")
	pt.Required[knowledgegaps.Response](t, "knowledge_gaps[]", "topic", "evidence", "severity", "related_concepts")
	pt.Required[knowledgegaps.Response](t, "kata_specs[]", "title", "description", "scaffolding_code", "test_cases", "constraints", "follow_up_constraint")
	pt.Required[knowledgegaps.Response](t, "session_summary", "phases_completed", "total_time_minutes", "hints_used", "independent_completions")
	pt.Enum[knowledgegaps.Response](t, "knowledge_gaps[].severity", false, "low", "medium", "high")
	pt.Range[knowledgegaps.Response](t, "session_summary.hints_used", pt.F(0), nil)
	got := pt.Valid[knowledgegaps.Response](t, validReply())
	if got.SessionSummary.TotalTimeMinutes != 34.5 || got.KataSpecs[0].FollowUpConstraint != nil {
		t.Errorf("decoded: got %+v", got)
	}
	bad := pt.Clone(validReply())
	bad["session_summary"].(map[string]any)["hints_used"] = -1
	pt.Invalid[knowledgegaps.Response](t, bad)
	bad = pt.Clone(validReply())
	bad["knowledge_gaps"].([]any)[0].(map[string]any)["severity"] = "critical"
	pt.Invalid[knowledgegaps.Response](t, bad)
}

func TestAssemble(t *testing.T) {
	got := pt.Decode(t, knowledgegaps.Assemble(
		[]knowledgegaps.Action{{ActionType: "file_save", Data: map[string]any{"path": "a.ts"}, CreatedAt: "2026-01-01T00:00:00.000Z"}},
		[]knowledgegaps.Phase{{Title: "P1", Status: "complete", HintLevel: "file"}},
		[]knowledgegaps.ExistingGap{{Topic: "async", Frequency: 2}},
	))
	want := map[string]any{
		"action_log":    []any{map[string]any{"action_type": "file_save", "data": map[string]any{"path": "a.ts"}, "created_at": "2026-01-01T00:00:00.000Z"}},
		"phases":        []any{map[string]any{"title": "P1", "status": "complete", "hint_level": "file"}},
		"existing_gaps": []any{map[string]any{"topic": "async", "frequency": float64(2)}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAssembleKeepsLastActions(t *testing.T) {
	var actions []knowledgegaps.Action
	for i := range knowledgegaps.MaxActions + 10 {
		actions = append(actions, knowledgegaps.Action{ActionType: fmt.Sprint("a", i)})
	}
	log := pt.Decode(t, knowledgegaps.Assemble(actions, nil, nil))["action_log"].([]any)
	if len(log) != knowledgegaps.MaxActions {
		t.Fatalf("actions: got %d, want %d", len(log), knowledgegaps.MaxActions)
	}
	if got := log[0].(map[string]any)["action_type"]; got != "a10" {
		t.Errorf("first kept: got %v, want a10", got)
	}
}
