// Package tools holds GhostPath's 17 custom tools: their definitions (name,
// description and input schema exactly as the spec gives them, one file per
// category), their handlers (one file per category, each an impureim
// sandwich: read state, validate with core, write) and the one explicit
// dispatch table from tool name to handler.
//
// Handlers never panic out and never return a Go error: every outcome is a
// [Result] whose Output is the JSON object the model receives. Failures are
// core errors rendered with status "error" (or "rejected"/"warning" for the
// info/warning codes TOO_OBVIOUS and AXIOM_NOT_EXTRACTED).
package tools

import "github.com/paige-dev/paige/internal/ideate/core"

// Definition is one custom tool in Anthropic tool-use format.
type Definition struct {
	Name        string
	Description string
	Category    core.ToolCategory
	// InputSchema is the JSON Schema object (type, properties, required).
	InputSchema map[string]any
}

// WebSearchMaxUses caps web searches per request (cost and context).
const WebSearchMaxUses = 5

// WebSearchType is Anthropic's built-in server-side web search tool type.
const WebSearchType = "web_search_20250305"

// All returns the 17 custom tools in the spec's order: analysis,
// generation, innovation, interaction, memory. The built-in web_search is
// added by the runner ([WebSearchType], [WebSearchMaxUses]).
func All() []Definition {
	out := make([]Definition, 0, 17)
	for _, group := range [][]Definition{analysisTools, generationTools, innovationTools, interactionTools, memoryTools} {
		out = append(out, group...)
	}
	return out
}

// Pausing reports whether a tool pauses the agent loop for the user.
func Pausing(name string) bool {
	switch name {
	case "present_round", "ask_user", "generate_final_spec":
		return true
	}
	return false
}

// object builds an input schema.
func object(props map[string]any, required ...string) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

func str(desc string) map[string]any {
	if desc == "" {
		return map[string]any{"type": "string"}
	}
	return map[string]any{"type": "string", "description": desc}
}

func strArray(desc string) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": desc}
}

func enum(values ...string) map[string]any {
	return map[string]any{"type": "string", "enum": values}
}

func objArray(desc string, props map[string]any) map[string]any {
	m := map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": props}}
	if desc != "" {
		m["description"] = desc
	}
	return m
}
