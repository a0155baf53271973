package dreyfusassessment_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
)

var stages = []string{"novice", "advanced_beginner", "competent", "proficient", "expert"}

func validReply() map[string]any {
	return map[string]any{"assessments": []any{map[string]any{
		"skill_area": "react hooks", "stage": "competent", "previous_stage": "advanced_beginner",
		"confidence": 0.8, "evidence": "few hints", "recommendation": "directional guidance",
	}}}
}

func TestSchema(t *testing.T) {
	pt.Required[dreyfusassessment.Response](t, "", "assessments")
	pt.Required[dreyfusassessment.Response](t, "assessments[]", "skill_area", "stage", "previous_stage", "confidence", "evidence", "recommendation")
	pt.Enum[dreyfusassessment.Response](t, "assessments[].stage", false, stages...)
	pt.Enum[dreyfusassessment.Response](t, "assessments[].previous_stage", true, stages...)
	pt.Range[dreyfusassessment.Response](t, "assessments[].confidence", pt.F(0), pt.F(1))
	got := pt.Valid[dreyfusassessment.Response](t, validReply())
	if got.Assessments[0].PreviousStage == nil || *got.Assessments[0].PreviousStage != "advanced_beginner" {
		t.Errorf("decoded: got %+v", got)
	}
	first := pt.Clone(validReply())
	first["assessments"].([]any)[0].(map[string]any)["previous_stage"] = nil
	pt.Valid[dreyfusassessment.Response](t, first)
	for field, v := range map[string]any{"stage": "guru", "previous_stage": "guru", "confidence": 1.2} {
		bad := pt.Clone(validReply())
		bad["assessments"].([]any)[0].(map[string]any)[field] = v
		pt.Invalid[dreyfusassessment.Response](t, bad)
	}
}

func TestAssemble(t *testing.T) {
	got := pt.Decode(t, dreyfusassessment.Assemble(
		[]dreyfusassessment.Evidence{{SkillArea: "sql", Sessions: 3, HintTrend: "decreasing", CompletionRate: 0.75}},
		nil,
		dreyfusassessment.RecentSession{PhasesCompleted: 3, HintsUsed: 1, IndependentCompletions: 2},
	))
	want := map[string]any{
		"accumulated_evidence": []any{map[string]any{"skill_area": "sql", "sessions": float64(3), "hint_trend": "decreasing", "completion_rate": 0.75}},
		"current_assessments":  []any{},
		"recent_session":       map[string]any{"phases_completed": float64(3), "hints_used": float64(1), "independent_completions": float64(2)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
