package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// TestSchemaValidation: every input is checked against the tool's declared
// JSON Schema before the handler runs; the model gets the path and the rule,
// never Go's decoding internals, and the buffer is left alone.
func TestSchemaValidation(t *testing.T) {
	h := newHarness(t)
	h.gates()
	tests := []struct {
		tool  string
		input string
		field string
		rule  string // substring of the message the model receives
	}{
		{"generate_premise", `{"title":5,"body":"b","premise_type":"initial"}`, "title", `has type "integer", want "string"`},
		{"generate_premise", `{"title":"t","body":"b","premise_type":"wild"}`, "premise_type", "enum"},
		{"generate_premise", `{"body":"b","premise_type":"initial"}`, "title", "is required"},
		{"generate_premise", `{"title":"t","body":"b","premise_type":"initial","direction_hint":["x"]}`, "direction_hint", "want \"string\""},
		{"mutate_premise", `{"source_title":"s","title":"t","body":"b","premise_type":"initial","mutation_strength":0.5}`, "premise_type", "enum"},
		{"mutate_premise", `{"source_title":"s","title":"t","body":"b","premise_type":"conservative","mutation_strength":3}`, "mutation_strength", "maximum"},
		{"cross_pollinate", `{"primary_title":"p","title":"t","body":"b","premise_type":"combination","synthesis_strategy":"s","secondary_premises":[{"title":1}]}`, "secondary_premises[].title", "want \"string\""},
		{"obviousness_test", `{"premise_buffer_index":"0","premise_title":"x","obviousness_score":0.2,"justification":"j"}`, "premise_buffer_index", "want"},
		{"get_context_usage", `[1]`, "input", "must be a JSON object"},
		{"get_context_usage", `{`, "input", "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.field, func(t *testing.T) {
			r := h.d.Execute(t.Context(), h.env, tt.tool, json.RawMessage(tt.input))
			if code(r) != core.CodeValidation || r.Err.Details[0].Field != tt.field {
				t.Fatalf("got %+v, want VALIDATION_ERROR on %s", r.Output, tt.field)
			}
			msg := r.Message()
			if !strings.Contains(msg, tt.rule) || !strings.Contains(msg, tt.field) {
				t.Errorf("message %q lacks the field %q or the rule %q", msg, tt.field, tt.rule)
			}
			for _, leak := range []string{"Go struct", "cannot unmarshal", "premiseInput"} {
				if strings.Contains(msg, leak) {
					t.Errorf("message %q leaks %q", msg, leak)
				}
			}
		})
	}
	if h.env.State.PremisesInBuffer() != 0 {
		t.Errorf("invalid input changed the buffer: %+v", h.env.State.Buffer)
	}
	h.must("get_context_usage", nil, "ok") // null is an empty object
}

// TestRadicalNeedsViolatedAxiom: the spec's "violated_axiom (required for
// radical type)" is enforced for every generation tool, after the rules.
func TestRadicalNeedsViolatedAxiom(t *testing.T) {
	h := newHarness(t)
	h.gates()
	if r := h.call("generate_premise", map[string]any{"title": "R", "body": "b", "premise_type": "radical"}); code(r) != core.CodeAxiomNotChallenged {
		t.Fatalf("before challenge_axiom got %v, want AXIOM_NOT_CHALLENGED first", r.Output)
	}
	h.must("challenge_axiom", map[string]any{"axiom": "churn is bad", "violation_strategy": "invert", "resulting_insight": "i"}, "ok")
	for _, in := range []map[string]any{
		{"title": "R", "body": "b", "premise_type": "radical"},
		{"title": "R", "body": "b", "premise_type": "radical", "violated_axiom": "  "},
	} {
		r := h.call("generate_premise", in)
		if code(r) != core.CodeValidation || r.Err.Details[0].Field != "violated_axiom" {
			t.Errorf("%v: got %v, want VALIDATION_ERROR on violated_axiom", in, r.Output)
		}
	}
	r := h.call("mutate_premise", map[string]any{"source_title": "A", "title": "M", "body": "b", "premise_type": "radical", "mutation_strength": 0.9})
	if code(r) != core.CodeValidation || r.Err.Details[0].Field != "violated_axiom" {
		t.Errorf("mutate_premise got %v, want VALIDATION_ERROR on violated_axiom", r.Output)
	}
	if h.env.State.PremisesInBuffer() != 0 {
		t.Fatalf("rejected radical premises were buffered: %+v", h.env.State.Buffer)
	}
	h.must("generate_premise", map[string]any{"title": "R", "body": "b", "premise_type": "radical", "violated_axiom": "churn is bad"}, "ok")
	if got := h.env.State.Buffer[0].ViolatedAxiom; got != "churn is bad" {
		t.Errorf("violated_axiom got %q", got)
	}
}

// TestDecodeNeverLeaksGoTypes: the decoding fallback behind the schema
// check names the field and JSON type only.
func TestDecodeNeverLeaksGoTypes(t *testing.T) {
	_, err := decode[premiseInput](json.RawMessage(`{"title":5}`))
	if err == nil || err.Details[0].Field != "title" || strings.Contains(err.Message, "Go") || strings.Contains(err.Message, "premiseInput") {
		t.Fatalf("got %+v", err)
	}
	if _, err := decode[premiseInput](json.RawMessage(`[`)); err == nil || err.Details[0].Field != "input" {
		t.Fatalf("got %+v", err)
	}
}
