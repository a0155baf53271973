package coaching

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
)

func TestKataConstraints(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       []string
		followUp *string
		want     []coach.KataConstraint
	}{
		{"none", nil, nil, []coach.KataConstraint{}},
		{"one", []string{"No loops"}, nil, []coach.KataConstraint{{Title: "No loops", Description: "No loops", MinLevel: 1}}},
		{"four spread 1, 3, 5, 7 (scenario 11.7)", []string{"a", "b", "c"}, sp("d"), []coach.KataConstraint{
			{Title: "a", Description: "a", MinLevel: 1}, {Title: "b", Description: "b", MinLevel: 3},
			{Title: "c", Description: "c", MinLevel: 5}, {Title: "d", Description: "d", MinLevel: 7}}},
		{"title split, blanks dropped", []string{"Pure: no mutation of inputs", " ", ": odd"}, sp("  "), []coach.KataConstraint{
			{Title: "Pure", Description: "Pure: no mutation of inputs", MinLevel: 1}, {Title: ": odd", Description: ": odd", MinLevel: 5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, kataConstraints(tc.in, tc.followUp)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	ten := make([]string, 12)
	for i := range ten {
		ten[i] = "c"
	}
	for _, c := range kataConstraints(ten, nil) {
		if c.MinLevel < 1 || c.MinLevel > MaxKataLevel {
			t.Errorf("minLevel %d outside 1..10", c.MinLevel)
		}
	}
}

func TestKataRowAndGapFor(t *testing.T) {
	gaps := []coach.KnowledgeGap{{ID: "g1", Topic: "OAuth token refresh"}, {ID: "g2", Topic: "React state", RelatedConcepts: []string{"closures"}}}
	for _, tc := range []struct {
		kata knowledgegaps.KataSpec
		i    int
		want int
	}{
		{knowledgegaps.KataSpec{Title: "Stale closures", Description: "fix it"}, 0, 1},
		{knowledgegaps.KataSpec{Title: "Refresh tokens", Description: ""}, 1, 0},
		{knowledgegaps.KataSpec{Title: "Unrelated"}, 1, 1},
		{knowledgegaps.KataSpec{Title: "Unrelated"}, 5, 1},
	} {
		if got := gapFor(tc.kata, tc.i, gaps); got != tc.want {
			t.Errorf("gapFor(%q, %d) = %d, want %d", tc.kata.Title, tc.i, got, tc.want)
		}
	}
	if got := gapFor(knowledgegaps.KataSpec{Title: "x"}, 0, nil); got != -1 {
		t.Errorf("no gaps: %d", got)
	}
	row := kataRow("g1", knowledgegaps.KataSpec{Title: " T ", Description: "d", ScaffoldingCode: "s", TestCases: []string{"a", " "}})
	if row.Title != "T" || row.InstructorNotes != "Test cases the solution must pass:\n- a" || row.KnowledgeGapID != "g1" || len(row.Constraints) != 0 {
		t.Errorf("kataRow = %+v", row)
	}
}

func TestGapRows(t *testing.T) {
	got := gapRows("s1", []knowledgegaps.Gap{{Topic: " OAuth ", Severity: "high", Evidence: "e"}, {Topic: "", Severity: "low"}, {Topic: "x", Severity: "huge"}})
	want := []coach.KnowledgeGap{{SessionID: "s1", Topic: "OAuth", Severity: coach.SeverityHigh, Evidence: "e"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestExistingGaps(t *testing.T) {
	got := existingGaps([]coach.KnowledgeGap{{Topic: "CSS grid", Frequency: 1}, {Topic: "OAuth", Frequency: 2}, {Topic: "oauth ", Frequency: 0}, {Topic: "css grid", Frequency: 3}})
	want := []knowledgegaps.ExistingGap{{Topic: "CSS grid", Frequency: 4}, {Topic: "OAuth", Frequency: 3}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	many := make([]coach.KnowledgeGap, MaxExistingGaps+10)
	for i := range many {
		many[i] = coach.KnowledgeGap{Topic: string(rune('A'+i%26)) + string(rune('a'+i/26))}
	}
	if n := len(existingGaps(many)); n != MaxExistingGaps {
		t.Errorf("cap: %d", n)
	}
}

func TestGapActions(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	actions := []coach.Action{
		{Type: coach.ActionFileOpen, Data: json.RawMessage(`{"path":"a"}`), CreatedAt: t0},
		{Type: coach.ActionFileSave, CreatedAt: t0.Add(2 * time.Second)},
	}
	events := []progressEvent{{ProgressEvent: coach.ProgressEvent{EventType: "hint_used", CreatedAt: t0.Add(time.Second), Data: json.RawMessage(`{"level":"line"}`)}, PhaseNumber: 2}}
	got := gapActions(actions, events)
	var types []string
	for _, a := range got {
		types = append(types, a.ActionType)
	}
	if diff := cmp.Diff([]string{"file_open", "progress:hint_used", "file_save"}, types); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if got[2].Data != nil || got[1].Data.(map[string]any)["phase"] != 2 || got[0].CreatedAt != "2026-01-01T10:00:00.000Z" {
		t.Errorf("actions = %+v", got)
	}
}

func TestHintTrend(t *testing.T) {
	for _, tc := range []struct {
		cur  int
		prev []int
		want string
	}{
		{3, nil, TrendFirstSession},
		{1, []int{4, 6}, TrendDecreasing},
		{5, []int{4, 6}, TrendStable},
		{9, []int{4, 6}, TrendIncreasing},
		{1, []int{0, 0}, TrendIncreasing},
		{0, []int{0}, TrendStable},
	} {
		if got := hintTrend(tc.cur, tc.prev); got != tc.want {
			t.Errorf("hintTrend(%d, %v) = %s, want %s", tc.cur, tc.prev, got, tc.want)
		}
	}
}

func TestDreyfusEvidence(t *testing.T) {
	h := history{
		Assessments: []coach.DreyfusAssessment{{SkillArea: "React state management", Stage: coach.Novice}},
		Gaps: []coach.KnowledgeGap{{SessionID: "s1", Topic: "React hooks"}, {SessionID: "s2", Topic: "react state"},
			{SessionID: "s2", Topic: "SQL joins"}, {SessionID: "s3", Topic: "sql joins"}},
		SessionHints: 2, EarlierHints: []int{2}, CompletionRate: 0.5,
	}
	want := []dreyfusassessment.Evidence{
		{SkillArea: "React state management", Sessions: 2, HintTrend: TrendStable, CompletionRate: 0.5},
		{SkillArea: "React hooks", Sessions: 2, HintTrend: TrendStable, CompletionRate: 0.5},
		{SkillArea: "react state", Sessions: 2, HintTrend: TrendStable, CompletionRate: 0.5},
		{SkillArea: "SQL joins", Sessions: 2, HintTrend: TrendStable, CompletionRate: 0.5},
	}
	if diff := cmp.Diff(want, dreyfusEvidence(h)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRecentSession(t *testing.T) {
	got := recentSession([]coach.Phase{{Status: coach.PhaseComplete, HintLevel: coach.HintNone}, {Status: coach.PhaseComplete, HintLevel: coach.HintLine},
		{Status: coach.PhaseActive}}, 4)
	if got != (dreyfusassessment.RecentSession{PhasesCompleted: 2, HintsUsed: 4, IndependentCompletions: 1}) {
		t.Errorf("got %+v", got)
	}
}

func TestChangedAssessments(t *testing.T) {
	current := []coach.DreyfusAssessment{{SkillArea: "Go", Stage: coach.Competent, Confidence: 0.7}}
	got := changedAssessments(current, []dreyfusassessment.Assessment{
		{SkillArea: "Go", Stage: "competent", Confidence: 0.7, Evidence: "same"}, // EC-59: no change
		{SkillArea: "SQL", Stage: "novice", Confidence: 0.2, Evidence: "first"},
		{SkillArea: "SQL", Stage: "advanced_beginner", Confidence: 0.3, Evidence: "second"},
		{SkillArea: "", Stage: "novice", Confidence: 0.5},
		{SkillArea: "CSS", Stage: "wizard", Confidence: 0.5},
		{SkillArea: "Rust", Stage: "novice", Confidence: 1.5},
	})
	want := []coach.DreyfusAssessment{{SkillArea: "SQL", Stage: coach.AdvancedBeginner, Confidence: 0.3, Evidence: "second"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := changedAssessments(current, []dreyfusassessment.Assessment{{SkillArea: "Go", Stage: "proficient", Confidence: 0.7}}); len(got) != 1 {
		t.Errorf("stage change not kept: %v", got)
	}
}
