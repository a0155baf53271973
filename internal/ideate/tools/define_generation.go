package tools

import "github.com/paige-dev/paige/internal/ideate/core"

var generationTools = []Definition{
	{
		Name: "generate_premise",
		Description: "Generates ONE premise. Adds it to the current round buffer. " +
			"RETURNS ERROR if analysis gates have not been satisfied. " +
			"RETURNS ERROR if the buffer already has 3 premises. " +
			"The return informs how many premises are left to complete the round. " +
			"After generating 3 premises, run obviousness_test on each one " +
			"then call present_round.",
		Category: core.CategoryGeneration,
		InputSchema: object(map[string]any{
			"title":               str("Concise premise title (1 line)"),
			"body":                str("Premise body (2-3 paragraphs)"),
			"premise_type":        enum("initial", "conservative", "radical", "combination"),
			"direction_hint":      str("Conceptual direction being explored"),
			"violated_axiom":      str("Violated axiom (required for radical type)"),
			"cross_domain_source": str("Inspiration source domain (when applicable)"),
		}, "title", "body", "premise_type"),
	},
	{
		Name: "mutate_premise",
		Description: "Applies mutation to an existing premise and adds the result to the buffer. " +
			"RETURNS ERROR if gates not satisfied or buffer full. " +
			"The return informs how many premises are left.",
		Category: core.CategoryGeneration,
		InputSchema: object(map[string]any{
			"source_title": str("Source premise title"),
			"source_body":  str("Source premise body"),
			"title":        str("Mutated premise title"),
			"body":         str("Mutated premise body"),
			"premise_type": enum("conservative", "radical", "combination"),
			"mutation_strength": map[string]any{
				"type": "number", "minimum": 0.1, "maximum": 1.0,
				"description": "0.1 = subtle refinement, 1.0 = complete inversion",
			},
			"violated_axiom":      str(""),
			"cross_domain_source": str(""),
		}, "source_title", "title", "body", "premise_type", "mutation_strength"),
	},
	{
		Name: "cross_pollinate",
		Description: "Combines premises and adds the result to the buffer. " +
			"RETURNS ERROR if gates not satisfied or buffer full. " +
			"The return informs how many premises are left.",
		Category: core.CategoryGeneration,
		InputSchema: object(map[string]any{
			"primary_title": str(""),
			"primary_body":  str(""),
			"secondary_premises": objArray("", map[string]any{
				"title": str(""), "element_to_extract": str(""),
			}),
			"title": str("Title of the resulting combined premise"),
			"body":  str("Body of the resulting combined premise"),
			"premise_type": map[string]any{
				"type": "string", "enum": []string{"combination"},
				"description": "Always 'combination' for cross-pollinated premises",
			},
			"synthesis_strategy":  str(""),
			"violated_axiom":      str(""),
			"cross_domain_source": str(""),
		}, "primary_title", "title", "body", "premise_type", "synthesis_strategy"),
	},
}
