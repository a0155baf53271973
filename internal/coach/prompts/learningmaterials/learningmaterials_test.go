package learningmaterials_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/learningmaterials"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func validReply() map[string]any {
	return map[string]any{"recommendations": []any{map[string]any{
		"knowledge_gap": "async", "study_order": "docs first", "practice_connection": nil,
		"resources": []any{map[string]any{"type": "documentation", "title": "MDN async", "url": "https://developer.mozilla.org/x",
			"description": "d", "relevance": "direct", "estimated_time": "20 min"}},
	}}}
}

func TestSchema(t *testing.T) {
	pt.Required[learningmaterials.Response](t, "", "recommendations")
	pt.Required[learningmaterials.Response](t, "recommendations[]", "knowledge_gap", "resources", "study_order", "practice_connection")
	pt.Required[learningmaterials.Response](t, "recommendations[].resources[]", "type", "title", "url", "description", "relevance", "estimated_time")
	pt.Enum[learningmaterials.Response](t, "recommendations[].resources[].type", false, "documentation", "article", "video", "tutorial")
	pt.Enum[learningmaterials.Response](t, "recommendations[].resources[].relevance", false, "direct", "deep_dive", "supplementary")
	pt.Valid[learningmaterials.Response](t, validReply())
	for field, v := range map[string]any{"type": "podcast", "relevance": "meh"} {
		bad := pt.Clone(validReply())
		bad["recommendations"].([]any)[0].(map[string]any)["resources"].([]any)[0].(map[string]any)[field] = v
		pt.Invalid[learningmaterials.Response](t, bad)
	}
}

func TestAssemble(t *testing.T) {
	got := pt.Decode(t, learningmaterials.Assemble([]learningmaterials.Gap{{Topic: "async", Severity: "high", Frequency: 3}}, "TypeScript, React", []string{"Await all"}))
	want := map[string]any{
		"knowledge_gaps":  []any{map[string]any{"topic": "async", "severity": "high", "relatedConcepts": []any{}, "frequency": float64(3)}},
		"tech_stack":      "TypeScript, React",
		"available_katas": []any{"Await all"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if s := learningmaterials.System("competent"); !strings.Contains(s, "overall Dreyfus stage: competent\n") {
		t.Errorf("System: got %q", s)
	}
}

func TestCallSendsWebSearchTool(t *testing.T) {
	s := llmtest.NewServer(t)
	c := llm.New(llm.Options{APIKey: "k", BaseURL: s.URL()})
	s.Enqueue(llmtest.Message("end_turn",
		llmtest.ServerToolUseBlock("srvtoolu_1", "web_search", map[string]any{"query": "async javascript tutorial"}),
		llmtest.WebSearchResultBlock("srvtoolu_1", llmtest.WebResult{URL: "https://developer.mozilla.org/x", Title: "MDN"}),
		llmtest.TextBlock(pt.JSONString(t, validReply())),
	))
	user := learningmaterials.Assemble(nil, "go", nil)
	got, _, err := llm.Call[learningmaterials.Response](context.Background(), c, learningmaterials.Request("sess", "novice", user))
	if err != nil {
		t.Fatal(err)
	}
	if got.Recommendations[0].Resources[0].URL != "https://developer.mozilla.org/x" {
		t.Errorf("decoded: got %+v", got)
	}
	want := []map[string]any{{"type": "web_search_20250305", "name": "web_search", "max_uses": float64(learningmaterials.MaxSearches)}}
	if diff := cmp.Diff(want, s.Requests()[0].Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}
