package tools

import "github.com/paige-dev/paige/internal/ideate/core"

var interactionTools = []Definition{
	{
		Name: "ask_user",
		Description: "Asks the user a question with selectable options. " +
			"Similar to Claude Code's AskUserTool: displays the question, " +
			"the user selects an option or types a free-form response. " +
			"Use to align direction, capture preferences, validate " +
			"meta-analysis, or any moment that needs directed user input. " +
			"The flow PAUSES until the user responds.",
		Category: core.CategoryInteraction,
		InputSchema: object(map[string]any{
			"question": str("The question to display to the user"),
			"options": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"label":       str("Short option text displayed as a button"),
						"description": str("Optional option description (displayed below the label)"),
					},
					"required": []string{"label"},
				},
				"minItems":    2,
				"maxItems":    5,
				"description": "Selectable options. The last option can be 'Other (type your response)'.",
			},
			"allow_free_text": map[string]any{
				"type": "boolean", "default": true,
				"description": "If true, displays a free text field in addition to the options",
			},
			"context": str("Optional context displayed above the question (e.g., meta-analysis)"),
		}, "question", "options"),
	},
	{
		Name: "present_round",
		Description: "Presents the round of 3 premises to the user. " +
			"Premises are read from the internal buffer (filled by generate_premise / " +
			"mutate_premise / cross_pollinate). Do NOT re-pass the premises. " +
			"RETURNS ERROR if buffer does not have exactly 3 premises. " +
			"RETURNS ERROR if any premise has not passed the obviousness_test. " +
			"The flow PAUSES until the user submits scores. " +
			"The user can also trigger 'Problem Resolved' " +
			"to finish with a winning premise.",
		Category: core.CategoryInteraction,
		InputSchema: object(map[string]any{
			"round_summary": str("Brief summary of the strategy used for this round's premises"),
		}),
	},
	{
		Name: "generate_final_spec",
		Description: "Generates the final .md spec from the winning premise. " +
			"Called ONLY after the user triggers 'Problem Resolved' " +
			"and indicates the winning premise. " +
			"The agent should respond with a positive message before calling, " +
			"informing the user that it will develop the idea in depth. " +
			"The generated content is saved as a .md file and delivered to the user.",
		Category: core.CategoryInteraction,
		InputSchema: object(map[string]any{
			"winning_premise_title": str(""),
			"winning_premise_body":  str(""),
			"winning_score":         map[string]any{"type": "number"},
			"problem_statement":     str(""),
			"evolution_summary":     str("Summary of the evolutionary journey (rounds, pivots, key insights)"),
			"spec_content": str("The COMPLETE spec content in Markdown. Must include: " +
				"1) Executive Summary, " +
				"2) The Problem (original context), " +
				"3) The Solution (premise expanded into actionable details), " +
				"4) How It Works (mechanisms, architecture, flows), " +
				"5) Implementation (concrete steps, suggested timeline), " +
				"6) Risks and Mitigations, " +
				"7) Success Metrics, " +
				"8) Evolutionary Journey (how we got here). " +
				"Be thorough and actionable. The user should be able to " +
				"act based on this document."),
		}, "winning_premise_title", "winning_premise_body", "problem_statement", "spec_content"),
	},
}
