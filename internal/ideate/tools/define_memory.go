package tools

import "github.com/paige-dev/paige/internal/ideate/core"

var memoryTools = []Definition{
	{
		Name:        "store_premise",
		Description: "Stores a premise with user score and comment in the database.",
		Category:    core.CategoryMemory,
		InputSchema: object(map[string]any{
			"title":        str(""),
			"body":         str(""),
			"premise_type": str(""),
			"score":        map[string]any{"type": "number"},
			"user_comment": str(""),
			"is_winner":    map[string]any{"type": "boolean"},
			"round_number": map[string]any{"type": "integer"},
		}, "title", "premise_type", "round_number"),
	},
	{
		Name:        "query_premises",
		Description: "Queries premises from the database. Filters by score, type, round.",
		Category:    core.CategoryMemory,
		InputSchema: object(map[string]any{
			"filter":       enum("all", "winners", "top_scored", "low_scored", "by_type", "by_round"),
			"premise_type": str(""),
			"round_number": map[string]any{"type": "integer"},
			"limit":        map[string]any{"type": "integer", "default": 10},
		}, "filter"),
	},
	{
		Name: "get_negative_context",
		Description: "Returns premises with score < 5.0 as negative context. " +
			"MUST be called before generating premises in rounds 2+.",
		Category:    core.CategoryMemory,
		InputSchema: object(map[string]any{}),
	},
	{
		Name:        "get_context_usage",
		Description: "Returns usage metrics for the 1M token context window.",
		Category:    core.CategoryMemory,
		InputSchema: object(map[string]any{}),
	},
}
