package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// TestToolErrorsAreForPeople: through the real runner, guardrail bounces
// (a tool called too early, a malformed input) reach the client as
// kind "guardrail" with a plain sentence, while the model's tool result
// keeps the precise code, field path and rule.
func TestToolErrorsAreForPeople(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(
		llmtest.ToolUse("t1", "generate_premise", map[string]any{"title": 5, "body": "B", "premise_type": "initial"}),
		llmtest.ToolUse("t2", "generate_premise", map[string]any{"title": "T", "body": "B", "premise_type": "initial"}),
		llmtest.Text("Analysing first."),
	)
	s := f.session(t)
	evs, out := f.run(context.Background(), s)
	if out.Errored {
		t.Fatalf("got %+v", out)
	}
	var got []core.ToolErrorData
	for _, e := range evs {
		if e.Type == core.EventToolError {
			got = append(got, e.Data.(core.ToolErrorData))
		}
	}
	if len(got) != 2 || got[0].ErrorCode != core.CodeValidation || got[1].ErrorCode != core.CodeGatesNotSatisfied {
		t.Fatalf("tool errors got %+v", got)
	}
	for _, d := range got {
		if d.Kind != core.KindGuardrail {
			t.Errorf("%s: kind %q, want guardrail", d.ErrorCode, d.Kind)
		}
		for _, leak := range []string{"ERROR", "VALIDATION", "GATES_", "json", "Go ", "struct", "/properties", "_"} {
			if strings.Contains(d.Message, leak) {
				t.Errorf("user message %q contains %q", d.Message, leak)
			}
		}
	}
	// The model saw the exact field and rule.
	block := f.fake.Requests()[1].Messages
	res := fmt.Sprint(block[len(block)-1].Content[0]["content"])
	if !strings.Contains(res, "VALIDATION_ERROR") || !strings.Contains(res, "title") || !strings.Contains(res, `want \"string\"`) && !strings.Contains(res, `want "string"`) {
		t.Errorf("model's tool result %s lacks the precise error", res)
	}
}

// TestRejectionIsProgress: a premise rejected as too obvious reaches the
// client as a tool_result sentence (no tool_error, no code), while the
// model gets the REJECTED result with TOO_OBVIOUS.
func TestRejectionIsProgress(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(
		ideatetest.Gates(),
		llmtest.ToolUse("g1", "generate_premise", map[string]any{"title": "Discounts", "body": "B", "premise_type": "initial"}),
		llmtest.ToolUse("o1", "obviousness_test", map[string]any{"premise_buffer_index": 0, "premise_title": "Discounts", "obviousness_score": 0.9, "justification": "everyone does it"}),
		llmtest.Text("Regenerating."),
	)
	evs, out := f.run(context.Background(), f.session(t))
	if out.Errored {
		t.Fatalf("got %+v", out)
	}
	var results []string
	for _, e := range evs {
		switch e.Type {
		case core.EventToolError:
			t.Errorf("rejection surfaced as tool_error: %+v", e.Data)
		case core.EventToolResult:
			results = append(results, e.Data.(string))
		}
	}
	lastResult := results[len(results)-1]
	if !strings.Contains(lastResult, "too obvious") || strings.Contains(lastResult, "REJECTED") || strings.Contains(lastResult, "TOO_OBVIOUS") {
		t.Errorf("user sees %q", lastResult)
	}
	reqs := f.fake.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if res := fmt.Sprint(msgs[len(msgs)-1].Content[0]["content"]); !strings.Contains(res, "TOO_OBVIOUS") {
		t.Errorf("model's tool result %s", res)
	}
}
