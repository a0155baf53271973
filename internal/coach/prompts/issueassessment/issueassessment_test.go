package issueassessment_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
)

func issue(n int) map[string]any {
	return map[string]any{
		"number": n, "title": "Fix login", "summary": "s", "suitability": "good_fit", "suitability_reason": "r",
		"estimated_difficulty": "beginner", "relevant_skills": []any{"auth"}, "priority_score": 0.9,
		"priority_factors":       map[string]any{"user_tagged": true, "similar_to_recent_work": false, "addresses_knowledge_gap": true, "team_urgency": "high"},
		"learning_opportunities": []any{"oauth"},
	}
}

func TestSchema(t *testing.T) {
	pt.Required[issueassessment.Response](t, "", "issues")
	pt.Required[issueassessment.Response](t, "issues[]", "number", "title", "summary", "suitability", "suitability_reason",
		"estimated_difficulty", "relevant_skills", "priority_score", "priority_factors", "learning_opportunities")
	pt.Required[issueassessment.Response](t, "issues[].priority_factors", "user_tagged", "similar_to_recent_work", "addresses_knowledge_gap", "team_urgency")
	pt.Enum[issueassessment.Response](t, "issues[].suitability", false, "good_fit", "stretch", "too_advanced")
	pt.Enum[issueassessment.Response](t, "issues[].estimated_difficulty", false, "beginner", "intermediate", "advanced")
	pt.Enum[issueassessment.Response](t, "issues[].priority_factors.team_urgency", false, "low", "medium", "high")
	pt.Range[issueassessment.Response](t, "issues[].priority_score", pt.F(0), pt.F(1))

	got := pt.Valid[issueassessment.Response](t, map[string]any{"issues": []any{issue(7)}})
	if got.Issues[0].Number != 7 || !got.Issues[0].PriorityFactors.UserTagged {
		t.Errorf("decoded: got %+v", got)
	}
	var eleven []any
	for i := range 11 {
		eleven = append(eleven, issue(i+1))
	}
	pt.Invalid[issueassessment.Response](t, map[string]any{"issues": eleven})
	bad := issue(0)
	pt.Invalid[issueassessment.Response](t, map[string]any{"issues": []any{bad}})
	bad = issue(1)
	bad["priority_score"] = 2
	pt.Invalid[issueassessment.Response](t, map[string]any{"issues": []any{bad}})
}

func TestAssembleDecodesGhOutputAndTruncates(t *testing.T) {
	ghOut := fmt.Sprintf(`[{"number":3,"title":"Slow query","body":%q,"labels":[{"id":"L1","name":"perf","color":"fff"}],
		"assignees":[{"login":"ana","name":"Ana"}],"comments":[{"author":{"login":"bo"},"body":"+1","createdAt":"2026-01-01"}]}]`,
		strings.Repeat("b", 3000))
	var issues []issueassessment.Issue
	if err := json.Unmarshal([]byte(ghOut), &issues); err != nil {
		t.Fatal(err)
	}
	title := "Fix OAuth"
	got := pt.Decode(t, issueassessment.Assemble(issues,
		[]issueassessment.Stage{{SkillArea: "sql", Stage: "novice", Confidence: 0.5}},
		[]issueassessment.RecentSession{{IssueTitle: &title, CompletedAt: "2026-01-02T00:00:00.000Z"}, {CompletedAt: "x"}},
		[]issueassessment.Gap{{Topic: "indexes", Severity: "high"}},
		[]issueassessment.Memory{{Content: "m"}}))
	gi := got["github_issues"].([]any)[0].(map[string]any)
	body := gi["body"].(string)
	if !strings.HasPrefix(body, strings.Repeat("b", 2000)) || strings.Contains(body, strings.Repeat("b", 2001)) || !strings.Contains(body, "truncated 1000") {
		t.Errorf("body not cut to 2000 chars: %d chars", len(body))
	}
	if diff := cmp.Diff([]any{map[string]any{"name": "perf"}}, gi["labels"]); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	wantRest := map[string]any{
		"user_dreyfus_stages": []any{map[string]any{"skill_area": "sql", "stage": "novice", "confidence": 0.5}},
		"recent_sessions":     []any{map[string]any{"issueTitle": "Fix OAuth", "completedAt": "2026-01-02T00:00:00.000Z"}, map[string]any{"issueTitle": nil, "completedAt": "x"}},
		"knowledge_gaps":      []any{map[string]any{"topic": "indexes", "severity": "high"}},
		"related_memories":    []any{map[string]any{"content": "m"}},
	}
	delete(got, "github_issues")
	if diff := cmp.Diff(wantRest, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAssembleKeepsLastComments(t *testing.T) {
	is := issueassessment.Issue{Number: 1}
	for i := range 15 {
		is.Comments = append(is.Comments, issueassessment.Comment{Body: fmt.Sprint("c", i)})
	}
	got := pt.Decode(t, issueassessment.Assemble([]issueassessment.Issue{is}, nil, nil, nil, nil))
	comments := got["github_issues"].([]any)[0].(map[string]any)["comments"].([]any)
	if len(comments) != issueassessment.MaxComments || comments[0].(map[string]any)["body"] != "c5" {
		t.Errorf("comments: got %d starting %v", len(comments), comments[0])
	}
}
