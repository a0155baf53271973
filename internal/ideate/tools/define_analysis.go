package tools

import "github.com/paige-dev/paige/internal/ideate/core"

var analysisTools = []Definition{
	{
		Name: "decompose_problem",
		Description: "Decomposes the user's problem into key dimensions. " +
			"MANDATORY GATE: must be called before any generation tool. " +
			"Without this tool, generate_premise/mutate_premise/cross_pollinate return ERROR.",
		Category: core.CategoryAnalysis,
		InputSchema: object(map[string]any{
			"problem_statement":   str("The problem as described by the user"),
			"dimensions":          strArray("Key dimensions identified in the problem"),
			"constraints_real":    strArray("Real constraints of the problem"),
			"constraints_assumed": strArray("Constraints that are ASSUMED but may not be real"),
			"success_metrics":     strArray("How to measure if the problem has been solved"),
		}, "problem_statement", "dimensions"),
	},
	{
		Name: "map_conventional_approaches",
		Description: "Maps conventional approaches that most people would try. " +
			"MANDATORY GATE: must be called before generating premises. " +
			"The goal is to know WHAT TO AVOID.",
		Category: core.CategoryAnalysis,
		InputSchema: object(map[string]any{
			"approaches": objArray("List of conventional approaches with their limitations", map[string]any{
				"name": str(""), "description": str(""), "limitations": str(""), "why_common": str(""),
			}),
		}, "approaches"),
	},
	{
		Name: "extract_hidden_axioms",
		Description: "Identifies hidden axioms — assumptions everyone takes for granted. " +
			"MANDATORY GATE: must be called before generating premises. " +
			"The returned axioms become available for challenge_axiom.",
		Category: core.CategoryAnalysis,
		InputSchema: object(map[string]any{
			"axioms": objArray("List of axioms with justification and violation consequences", map[string]any{
				"axiom": str(""), "why_assumed": str(""), "what_if_violated": str(""),
			}),
			"existing_axioms": strArray("Previously identified axioms (to avoid repetition)"),
		}, "axioms"),
	},
}
