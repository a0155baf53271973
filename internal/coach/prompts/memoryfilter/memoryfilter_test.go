package memoryfilter_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
	"github.com/paige-dev/paige/internal/llm"
)

func TestSchema(t *testing.T) {
	pt.Required[memoryfilter.Response](t, "", "relevant_memories", "discarded")
	pt.Required[memoryfilter.Response](t, "relevant_memories[]", "content", "relevance", "connection", "use_in_coaching")
	pt.Required[memoryfilter.Response](t, "discarded[]", "content", "reason")
	pt.Enum[memoryfilter.Response](t, "relevant_memories[].relevance", false, "direct", "related", "contextual")
	valid := map[string]any{
		"relevant_memories": []any{map[string]any{"content": "c", "relevance": "direct", "connection": "x", "use_in_coaching": "y"}},
		"discarded":         []any{map[string]any{"content": "d", "reason": "css"}},
	}
	got := pt.Valid[memoryfilter.Response](t, valid)
	if got.RelevantMemories[0].UseInCoaching != "y" || got.Discarded[0].Reason != "css" {
		t.Errorf("decoded: got %+v", got)
	}
	bad := pt.Clone(valid)
	bad["relevant_memories"].([]any)[0].(map[string]any)["relevance"] = "vague"
	pt.Invalid[memoryfilter.Response](t, bad)
	pt.Invalid[memoryfilter.Response](t, map[string]any{"relevant_memories": []any{}})
}

func TestAssemble(t *testing.T) {
	got := pt.Decode(t, memoryfilter.Assemble("OAuth bug", "1. fix", []memoryfilter.Candidate{
		{Content: "race in callback", Metadata: map[string]any{"project": "app", "session_id": "s1"}},
	}))
	want := map[string]any{
		"issue_summary": "OAuth bug",
		"plan_summary":  "1. fix",
		"candidate_memories": []any{map[string]any{
			"content": "race in callback", "metadata": map[string]any{"project": "app", "session_id": "s1"},
		}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := pt.Decode(t, memoryfilter.Assemble("", "", nil))["candidate_memories"]; got == nil {
		t.Error("nil candidates rendered as null, want []")
	}
	if r := memoryfilter.Request("s", "u"); r.Tier != llm.Haiku || r.CallType != "memory_retrieval_filter" || r.System != memoryfilter.SystemPrompt {
		t.Errorf("Request: got %+v", r)
	}
}
