package tools

import (
	"testing"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// FuzzDispatch feeds arbitrary model-produced input to every tool: a tool
// never panics out of the dispatch, always answers a status, and keeps the
// buffer within 3 premises.
func FuzzDispatch(f *testing.F) {
	names := NewDispatch().Names()
	for i, seed := range []string{
		`{"title":"t","body":"b","premise_type":"radical"}`,
		`{"premise_buffer_index":-5,"premise_title":"x","obviousness_score":0.61,"justification":"j"}`,
		`{"axioms":[{"axiom":""}],"problem_statement":"p","dimensions":["d"]}`,
		`{"question":"q","options":[{"label":"a"},{"label":"b"}],"allow_free_text":"yes"}`,
		`{"filter":"by_round","round_number":-1,"limit":100000}`,
		`not json`, `null`, `[]`,
	} {
		f.Add(uint8(i), []byte(seed))
	}
	h := newHarness(f)
	h.gates()
	f.Fuzz(func(t *testing.T, which uint8, input []byte) {
		name := names[int(which)%len(names)]
		r := h.d.Execute(t.Context(), h.env, name, input)
		if r.Status() == "" {
			t.Fatalf("%s: no status in %v", name, r.Output)
		}
		if r.Err != nil && r.Err.Code == core.CodeToolExecution {
			t.Fatalf("%s panicked on %q", name, input)
		}
		if n := h.env.State.PremisesInBuffer(); n > core.MaxBufferSize {
			t.Fatalf("buffer grew to %d", n)
		}
	})
}
