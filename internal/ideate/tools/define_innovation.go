package tools

import "github.com/paige-dev/paige/internal/ideate/core"

var innovationTools = []Definition{
	{
		Name: "challenge_axiom",
		Description: "Challenges an axiom identified by extract_hidden_axioms. " +
			"If the axiom was not previously extracted, returns WARNING. " +
			"The agent CANNOT generate a radical variation without calling this tool first.",
		Category: core.CategoryInnovation,
		InputSchema: object(map[string]any{
			"axiom":              str(""),
			"violation_strategy": enum("negate", "invert", "remove", "replace", "exaggerate"),
			"resulting_insight":  str("The insight that emerges from violating the axiom"),
		}, "axiom", "violation_strategy", "resulting_insight"),
	},
	{
		Name: "import_foreign_domain",
		Description: "Finds an analogy from a completely different domain than the problem. " +
			"The source domain MUST have maximum semantic distance.",
		Category: core.CategoryInnovation,
		InputSchema: object(map[string]any{
			"problem_domain":     str(""),
			"source_domain":      str(""),
			"analogy_seed":       str(""),
			"translated_insight": str("How the analogy translates to the original problem"),
		}, "problem_domain", "source_domain", "analogy_seed", "translated_insight"),
	},
	{
		Name: "obviousness_test",
		Description: "Tests whether a premise in the buffer is obvious. " +
			"MANDATORY for each premise before present_round. " +
			"Returns how many premises still need testing. " +
			"Score > 0.6 = discard and regenerate.",
		Category: core.CategoryInnovation,
		InputSchema: object(map[string]any{
			"premise_buffer_index": map[string]any{"type": "integer", "description": "Premise index in the buffer (0, 1, or 2)"},
			"premise_title":        str(""),
			"obviousness_score": map[string]any{
				"type": "number", "minimum": 0.0, "maximum": 1.0,
				"description": "0.0 = completely novel, 1.0 = totally obvious",
			},
			"justification": str("Why this premise is or is not obvious"),
		}, "premise_buffer_index", "premise_title", "obviousness_score", "justification"),
	},
	{
		Name: "invert_problem",
		Description: "Inverts the problem to find non-obvious solutions. " +
			"Charlie Munger's technique: 'Invert, always invert.'",
		Category: core.CategoryInnovation,
		InputSchema: object(map[string]any{
			"original_problem": str(""),
			"inversion_type":   enum("cause_problem", "maximize_failure", "remove_solution", "reverse_stakeholders"),
			"inverted_framing": str("The problem reframed in inverted form"),
			"insights":         strArray("2-3 insights that emerge from the inversion"),
		}, "original_problem", "inversion_type", "inverted_framing", "insights"),
	},
}
