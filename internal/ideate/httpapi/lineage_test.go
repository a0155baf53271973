package httpapi

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// lineageRound returns the replies of a first round whose premises derive
// from each other: a fresh premise, a mutation of it and a combination with
// it as the primary parent.
func lineageRound() []llmtest.Response {
	gen := []llmtest.Block{
		llmtest.ToolUseBlock("toolu_lin_gen", "generate_premise", map[string]any{
			"title": "Fresh", "body": "A fresh idea", "premise_type": "initial"}),
		llmtest.ToolUseBlock("toolu_lin_mut", "mutate_premise", map[string]any{
			"source_title": "Fresh", "title": "Mutant", "body": "Fresh, inverted",
			"premise_type": "conservative", "mutation_strength": 0.5}),
		llmtest.ToolUseBlock("toolu_lin_cross", "cross_pollinate", map[string]any{
			"primary_title": "Fresh", "title": "Hybrid", "body": "Fresh meets biology",
			"premise_type": "combination", "synthesis_strategy": "merge"}),
	}
	var test []llmtest.Block
	for i, title := range []string{"Fresh", "Mutant", "Hybrid"} {
		test = append(test, llmtest.ToolUseBlock("toolu_lin_obv"+title, "obviousness_test", map[string]any{
			"premise_buffer_index": i, "premise_title": title, "obviousness_score": 0.2, "justification": "novel"}))
	}
	return []llmtest.Response{ideatetest.Gates(),
		llmtest.Message("tool_use", gen...),
		llmtest.Message("tool_use", test...),
		llmtest.Message("tool_use", llmtest.ToolUseBlock("toolu_lin_present", "present_round", map[string]any{"round_summary": "lineage"})),
	}
}

// TestPremiseLineage: a mutated and a cross-pollinated premise name their
// parent in the premises event and in GET /sessions/{id} rounds, also after
// a restart; a fresh premise has neither key. On SQLite and PostgreSQL.
func TestPremiseLineage(t *testing.T) {
	both(t, testPremiseLineage)
}

func testPremiseLineage(t *testing.T, e *env) {
	id := e.create(problem)
	e.fake.Enqueue(lineageRound()...)
	evs := e.stream(id)
	if d := doneOf(t, evs); d.Error || !d.AwaitingInput {
		t.Fatalf("round done got %+v (%v)", d, evTypes(evs))
	}
	want := []lineage{{"Fresh", "", ""}, {"Mutant", "Fresh", ""}, {"Hybrid", "", "Fresh"}}
	if diff := cmp.Diff(want, eventLineage(t, evs)); diff != "" {
		t.Errorf("premises event lineage (-want +got):\n%s", diff)
	}

	wantDetail := []map[string]any{{}, {"source_title": "Fresh"}, {"primary_title": "Fresh"}}
	for _, restart := range []bool{false, true} {
		if restart {
			e.stop()
			e.start()
			// The paused round's premises event is re-sent from the persisted state.
			if diff := cmp.Diff(want, eventLineage(t, e.stream(id))); diff != "" {
				t.Errorf("re-sent premises event lineage (-want +got):\n%s", diff)
			}
		}
		if diff := cmp.Diff(wantDetail, detailLineage(t, e, id)); diff != "" {
			t.Errorf("GET session lineage (restart %v) (-want +got):\n%s", restart, diff)
		}
	}
}

type lineage struct{ Title, Source, Primary string }

func eventLineage(t *testing.T, evs []sseEvent) []lineage {
	t.Helper()
	var out []lineage
	for _, p := range premisesOf(t, evs) {
		out = append(out, lineage{p.Title, p.SourceTitle, p.PrimaryTitle})
	}
	return out
}

// detailLineage returns, per premise of the session's first round, the
// lineage keys GET /sessions/{id} carries.
func detailLineage(t *testing.T, e *env, id string) []map[string]any {
	t.Helper()
	rounds, _ := e.json("GET", "/api/v1/sessions/"+id, nil, 200)["rounds"].([]any)
	if len(rounds) != 1 {
		t.Fatalf("rounds got %v, want 1", rounds)
	}
	var out []map[string]any
	for _, p := range rounds[0].(map[string]any)["premises"].([]any) {
		m := map[string]any{}
		for _, k := range []string{"source_title", "primary_title"} {
			if v, ok := p.(map[string]any)[k]; ok {
				m[k] = v
			}
		}
		out = append(out, m)
	}
	return out
}
