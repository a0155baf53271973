package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// TestValidation: every input is checked against the tool's declared
// JSON Schema, then by the handler's own rules, before anything changes;
// the model gets the path and the rule, never Go's decoding internals, and
// the buffer is left alone.
func TestValidation(t *testing.T) {
	h := newHarness(t)
	h.gates()
	tests := []struct {
		tool  string
		input any // a string is sent as it is, anything else as its JSON
		field string
		rule  string // substring of the message the model receives (with the field); "": not checked
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
		{"generate_premise", map[string]any{"title": "", "body": "b", "premise_type": "initial"}, "title", ""},
		{"generate_premise", map[string]any{"title": "t", "body": "b", "premise_type": "wild"}, "premise_type", ""},
		{"generate_premise", map[string]any{"title": 5, "body": "b"}, "title", ""},
		{"mutate_premise", map[string]any{"source_title": "s", "title": "t", "body": "b", "premise_type": "conservative", "mutation_strength": 0.05}, "mutation_strength", ""},
		{"cross_pollinate", map[string]any{"primary_title": "p", "title": "t", "body": "b", "premise_type": "radical", "synthesis_strategy": "s"}, "premise_type", ""},
		{"obviousness_test", map[string]any{"premise_title": "t", "obviousness_score": 0.1}, "premise_buffer_index", ""},
		{"ask_user", map[string]any{"question": "Q?", "options": []map[string]any{{"label": "only"}}}, "options", ""},
		{"ask_user", map[string]any{"question": "Q?", "options": []map[string]any{{"label": "a"}, {"label": " "}}}, "options.1.label", ""},
		{"query_premises", map[string]any{"filter": "everything"}, "filter", ""},
		{"store_premise", map[string]any{"title": "t", "premise_type": "initial"}, "round_number", ""},
		{"challenge_axiom", map[string]any{"axiom": "a", "violation_strategy": "ignore", "resulting_insight": "i"}, "violation_strategy", ""},
		{"invert_problem", map[string]any{"original_problem": "p", "inversion_type": "x", "inverted_framing": "f"}, "inversion_type", ""},
		{"decompose_problem", map[string]any{"problem_statement": "p"}, "dimensions", ""},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.field, func(t *testing.T) {
			raw, isRaw := tt.input.(string)
			if !isRaw {
				b, _ := json.Marshal(tt.input)
				raw = string(b)
			}
			r := h.d.Execute(t.Context(), h.env, tt.tool, json.RawMessage(raw))
			if code(r) != core.CodeValidation || r.Err.Details[0].Field != tt.field {
				t.Fatalf("got %+v, want VALIDATION_ERROR on %s", r.Output, tt.field)
			}
			msg := r.Message()
			if tt.rule != "" && (!strings.Contains(msg, tt.rule) || !strings.Contains(msg, tt.field)) {
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
