package coachagent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func validReply() map[string]any {
	return map[string]any{
		"phases": []any{map[string]any{
			"number": 1, "title": "Find the handler", "description": "Open the OAuth handler.",
			"expected_files": []any{"src/oauth.ts"}, "hint_level": "file",
			"hints": map[string]any{
				"file_hints": []any{map[string]any{"path": "src/oauth.ts", "style": "suggested"}},
				"line_hints": []any{map[string]any{"path": "src/oauth.ts", "start": 3, "end": 9, "style": "focus", "hover_text": "here"}},
			},
			"knowledge_gap_opportunities": []any{"async"},
		}},
		"memory_connection":    nil,
		"estimated_difficulty": "intermediate",
	}
}

func TestSchema(t *testing.T) {
	pt.Required[coachagent.Response](t, "", "phases", "memory_connection", "estimated_difficulty")
	pt.Required[coachagent.Response](t, "phases[]", "number", "title", "description", "expected_files", "hint_level", "hints", "knowledge_gap_opportunities")
	pt.Required[coachagent.Response](t, "phases[].hints.line_hints[]", "path", "start", "end", "style", "hover_text")
	pt.Enum[coachagent.Response](t, "phases[].hint_level", false, "none", "file", "region", "line")
	pt.Enum[coachagent.Response](t, "phases[].hints.file_hints[].style", false, "suggested", "important", "critical")
	pt.Enum[coachagent.Response](t, "phases[].hints.line_hints[].style", false, "hint", "focus", "warning")
	pt.Enum[coachagent.Response](t, "estimated_difficulty", false, "beginner", "intermediate", "advanced")
	pt.Range[coachagent.Response](t, "phases[].number", pt.F(1), nil)

	got := pt.Valid[coachagent.Response](t, validReply())
	if got.Phases[0].Hints.LineHints[0].End != 9 || got.MemoryConnection != nil {
		t.Errorf("decoded: got %+v", got)
	}
	for name, mutate := range map[string]func(m map[string]any){
		"phase number 0":  func(m map[string]any) { m["phases"].([]any)[0].(map[string]any)["number"] = 0 },
		"bad hint level":  func(m map[string]any) { m["phases"].([]any)[0].(map[string]any)["hint_level"] = "all" },
		"bad difficulty":  func(m map[string]any) { m["estimated_difficulty"] = "hard" },
		"missing hints":   func(m map[string]any) { delete(m["phases"].([]any)[0].(map[string]any), "hints") },
		"memory not null": func(m map[string]any) { m["memory_connection"] = 3 },
		"line start zero": func(m map[string]any) {
			m["phases"].([]any)[0].(map[string]any)["hints"].(map[string]any)["line_hints"].([]any)[0].(map[string]any)["start"] = 0
		},
	} {
		t.Run(name, func(t *testing.T) {
			m := pt.Clone(validReply())
			mutate(m)
			pt.Invalid[coachagent.Response](t, m)
		})
	}
}

func TestAssemble(t *testing.T) {
	mem := []coachagent.Memory{{Content: "OAuth race fixed", Connection: "same handler", UseInCoaching: "remind"}}
	got := pt.Decode(t, coachagent.Assemble("1. Fix <callback> & retry", "competent", mem))
	want := map[string]any{
		"plan":          "1. Fix <callback> & retry",
		"dreyfus_stage": "competent",
		"relevant_memories": []any{map[string]any{
			"content": "OAuth race fixed", "connection": "same handler", "use_in_coaching": "remind",
		}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	empty := coachagent.Assemble("plan", "", nil)
	if !strings.Contains(empty, `"relevant_memories":[]`) || !strings.Contains(empty, `"dreyfus_stage":"novice"`) {
		t.Errorf("defaults: got %s", empty)
	}
	if strings.Contains(coachagent.Assemble("<a>", "", nil), `\u003c`) {
		t.Error("HTML-escaped the plan")
	}
}

func TestCallThroughSDK(t *testing.T) {
	s := llmtest.NewServer(t)
	c := llm.New(llm.Options{APIKey: "k", BaseURL: s.URL()})
	s.Enqueue(llmtest.JSON(validReply()))
	user := coachagent.Assemble("plan", "novice", nil)
	got, _, err := llm.Call[coachagent.Response](context.Background(), c, coachagent.Request("sess", user))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Phases) != 1 {
		t.Errorf("phases: got %d", len(got.Phases))
	}
	r := s.Requests()[0]
	if r.Model != "claude-sonnet-4-5-20250929" || r.System != coachagent.SystemPrompt || r.LastUserText() != user {
		t.Errorf("request: got model %q", r.Model)
	}
	if r.Schema()["properties"].(map[string]any)["phases"] == nil {
		t.Errorf("schema sent: got %v", r.Schema())
	}
	raw, last := string(r.Raw), -1
	for _, field := range []string{`"phases":`, `"number":`, `"title":`, `"hint_level":`, `"file_hints":`, `"memory_connection":`, `"estimated_difficulty":`} {
		i := strings.Index(raw, field)
		if i <= last {
			t.Errorf("schema property %s not in spec order", field)
		}
		last = i
	}
}
