package practicereview_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
)

func validReply() map[string]any {
	return map[string]any{
		"correct": true, "feedback": "good", "level": 6, "passed": true,
		"follow_up":      map[string]any{"type": "constraint_escalation", "constraint": "No loops", "reason": "push further"},
		"dreyfus_signal": "advancing",
	}
}

func TestSchema(t *testing.T) {
	pt.Required[practicereview.Response](t, "", "correct", "feedback", "level", "passed", "follow_up", "dreyfus_signal")
	pt.Required[practicereview.Response](t, "follow_up", "type")
	pt.Enum[practicereview.Response](t, "follow_up.type", false, "constraint_escalation", "retry_hint", "completed")
	pt.Enum[practicereview.Response](t, "dreyfus_signal", false, "advancing", "stable", "struggling")
	pt.Range[practicereview.Response](t, "level", pt.F(1), pt.F(10))
	got := pt.Valid[practicereview.Response](t, validReply())
	if got.FollowUp == nil || got.FollowUp.Constraint != "No loops" || got.Level != 6 {
		t.Errorf("decoded: got %+v", got)
	}
	noFollow := pt.Clone(validReply())
	noFollow["follow_up"] = nil
	pt.Valid[practicereview.Response](t, noFollow)
	minimal := pt.Clone(validReply())
	minimal["follow_up"] = map[string]any{"type": "retry_hint"}
	pt.Valid[practicereview.Response](t, minimal)
	for field, v := range map[string]any{"level": 11, "dreyfus_signal": "flying"} {
		bad := pt.Clone(validReply())
		bad[field] = v
		pt.Invalid[practicereview.Response](t, bad)
	}
	bad := pt.Clone(validReply())
	bad["level"] = 0
	pt.Invalid[practicereview.Response](t, bad)
}

func TestSystemAndAssemble(t *testing.T) {
	if s := practicereview.System("proficient"); !strings.Contains(s, "for this topic: proficient\n") {
		t.Errorf("System: got %q", s)
	}
	level, passed := 4, false
	got := pt.Decode(t, practicereview.Assemble("Reverse a list", "look for in-place", []practicereview.Constraint{{Title: "No builtins", Description: "d"}},
		"func rev() {}", []practicereview.Attempt{{Code: "v1", Review: "close", Level: &level, Passed: &passed}, {Code: "v0"}}))
	want := map[string]any{
		"kata_description":   "Reverse a list",
		"instructor_notes":   "look for in-place",
		"active_constraints": []any{map[string]any{"title": "No builtins", "description": "d"}},
		"user_code":          "func rev() {}",
		"previous_attempts": []any{
			map[string]any{"code": "v1", "review": "close", "level": float64(4), "passed": false},
			map[string]any{"code": "v0"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
