package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
)

type lineage struct{ Title, Source, Primary string }

// TestPremiseLineage: the title a premise was derived from travels from the
// generation tool through the buffered state (and its JSON), into the
// premises event's PremiseView and into the stored premise.
func TestPremiseLineage(t *testing.T) {
	h := newHarness(t)
	h.gates()
	// generate_premise has no parent: a stray source_title is ignored.
	h.must("generate_premise", map[string]any{"title": "Fresh", "body": "b", "premise_type": "initial", "source_title": "X"}, "ok")
	h.must("mutate_premise", map[string]any{"source_title": " Fresh ", "title": "Mutant", "body": "b",
		"premise_type": "conservative", "mutation_strength": 0.4}, "ok")
	h.must("cross_pollinate", map[string]any{"primary_title": "Mutant", "title": "Hybrid", "body": "b",
		"premise_type": "combination", "synthesis_strategy": "merge"}, "ok")
	want := []lineage{{"Fresh", "", ""}, {"Mutant", "Fresh", ""}, {"Hybrid", "", "Mutant"}}

	// The buffer survives the state's persistence (state_json).
	b, err := json.Marshal(h.env.State)
	if err != nil {
		t.Fatal(err)
	}
	var restored core.State
	if err := json.Unmarshal(b, &restored); err != nil {
		t.Fatal(err)
	}
	var buffered []lineage
	for _, p := range restored.Buffer {
		buffered = append(buffered, lineage{p.Title, p.SourceTitle, p.PrimaryTitle})
	}
	if diff := cmp.Diff(want, buffered); diff != "" {
		t.Errorf("buffered lineage after JSON round trip (-want +got):\n%s", diff)
	}

	for i := range 3 {
		h.must("obviousness_test", map[string]any{"premise_buffer_index": i, "premise_title": "x", "obviousness_score": 0.3, "justification": "j"}, "ok")
	}
	r := h.must("present_round", nil, "awaiting_user_scores")
	views, _ := r.Pause.Data.([]core.PremiseView)
	var got []lineage
	for _, v := range views {
		got = append(got, lineage{v.Title, v.SourceTitle, v.PrimaryTitle})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("premises event lineage (-want +got):\n%s", diff)
	}
	stored, err := h.repo.QueryPremises(context.Background(), h.env.SessionID, core.PremiseQuery{Filter: core.FilterAll})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, p := range stored {
		got = append(got, lineage{p.Title, p.SourceTitle, p.PrimaryTitle})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored lineage (-want +got):\n%s", diff)
	}
}

// TestPremiseViewLineageJSON: the premises event names the fields as the web
// UI reads them and leaves them out when empty.
func TestPremiseViewLineageJSON(t *testing.T) {
	tests := []struct {
		name string
		view core.PremiseView
		want map[string]any
	}{
		{"mutation", core.PremiseView{Lineage: core.Lineage{SourceTitle: "A"}}, map[string]any{"source_title": "A"}},
		{"combination", core.PremiseView{Lineage: core.Lineage{PrimaryTitle: "B"}}, map[string]any{"primary_title": "B"}},
		{"fresh", core.PremiseView{}, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.view)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			got := map[string]any{}
			for _, k := range []string{"source_title", "primary_title"} {
				if v, ok := m[k]; ok {
					got[k] = v
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lineage keys (-want +got):\n%s", diff)
			}
		})
	}
}
