// Package ideatetest scripts the fake Claude (llmtest) through GhostPath
// sessions: the analysis gates, full rounds, ask_user and the final spec, as
// the tool-use replies a well-behaved agent would send. Tests and benchmarks
// of the runner and the API share it.
package ideatetest

import (
	"fmt"
	"sync/atomic"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

var seq atomic.Int64

func id(name string) string { return fmt.Sprintf("toolu_%s_%d", name, seq.Add(1)) }

// Axiom is the axiom the scripted extract_hidden_axioms returns.
const Axiom = "Customers leave because of price"

// Gates returns one reply calling the three analysis gates.
func Gates() llmtest.Response {
	return llmtest.Message("tool_use",
		llmtest.TextBlock("Let me analyse the problem first."),
		llmtest.ToolUseBlock(id("decompose"), "decompose_problem", map[string]any{
			"problem_statement": "Reduce churn", "dimensions": []string{"price", "habit"}}),
		llmtest.ToolUseBlock(id("map"), "map_conventional_approaches", map[string]any{
			"approaches": []map[string]any{{"name": "Discounts", "limitations": "erode margin"}}}),
		llmtest.ToolUseBlock(id("axioms"), "extract_hidden_axioms", map[string]any{
			"axioms": []map[string]any{{"axiom": Axiom, "why_assumed": "surveys"}}}),
	)
}

// Titles returns the three premise titles of a round with prefix.
func Titles(prefix string) []string {
	return []string{prefix + " premise A", prefix + " premise B", prefix + " premise C"}
}

// Round returns the replies that fill and present one round: for later
// rounds get_negative_context first, then three generate_premise, three
// obviousness_test and present_round.
func Round(prefix string, later bool) []llmtest.Response {
	var out []llmtest.Response
	if later {
		out = append(out, llmtest.ToolUse(id("neg"), "get_negative_context", map[string]any{}))
	}
	var gen, test []llmtest.Block
	for i, title := range Titles(prefix) {
		gen = append(gen, llmtest.ToolUseBlock(id("gen"), "generate_premise", map[string]any{
			"title": title, "body": "Body of " + title, "premise_type": "initial"}))
		test = append(test, llmtest.ToolUseBlock(id("obv"), "obviousness_test", map[string]any{
			"premise_buffer_index": i, "premise_title": title, "obviousness_score": 0.2, "justification": "novel"}))
	}
	return append(out,
		llmtest.Message("tool_use", gen...),
		llmtest.Message("tool_use", test...),
		llmtest.Message("tool_use", llmtest.TextBlock("Here is round "+prefix+"."),
			llmtest.ToolUseBlock(id("present"), "present_round", map[string]any{"round_summary": prefix})),
	)
}

// FirstRound returns Gates followed by Round(prefix, false).
func FirstRound(prefix string) []llmtest.Response {
	return append([]llmtest.Response{Gates()}, Round(prefix, false)...)
}

// AskUser returns a reply asking the user a question with two options.
func AskUser(question string) llmtest.Response {
	return llmtest.Message("tool_use", llmtest.ToolUseBlock(id("ask"), "ask_user", map[string]any{
		"question": question, "options": []map[string]any{{"label": "Yes"}, {"label": "No", "description": "try again"}}}))
}

// FinalSpec returns the replies of a resolved session: an enthusiastic text
// and generate_final_spec with content.
func FinalSpec(winner, content string) llmtest.Response {
	return llmtest.Message("tool_use",
		llmtest.TextBlock("Excellent choice! I'll develop a complete spec."),
		llmtest.ToolUseBlock(id("spec"), "generate_final_spec", map[string]any{
			"winning_premise_title": winner, "winning_premise_body": "Body of " + winner,
			"problem_statement": "Reduce churn", "spec_content": content}))
}
