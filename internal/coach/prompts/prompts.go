// Package prompts holds what the prompt template packages below it share:
// the Dreyfus stage names, JSON rendering of user messages, and truncation.
//
// Each call type of spec stories 9–12 is one package under prompts/ (the Go
// form of the spec's "Prompt Template Module" convention, FR-094): CallType
// and Tier constants, the system prompt (spec text), the response type whose
// generated JSON Schema is the contract with the model (see llm.SchemaFor),
// input types, a pure Assemble function building the user message, and
// Request building the llm.Request.
//
//	coachagent         coach_agent               Sonnet  story 9
//	memoryfilter       memory_retrieval_filter   Haiku   story 9
//	knowledgegaps      knowledge_gap_extraction  Sonnet  story 9
//	dreyfusassessment  dreyfus_assessment        Sonnet  story 9
//	memorysummary      memory_summarisation      Haiku   story 9
//	observertriage     observer_triage           Haiku   story 10
//	explainthis        explain_this              Sonnet  story 11
//	practicereview     practice_review           Sonnet  story 11
//	issueassessment    issue_assessment          Sonnet  story 12
//	learningmaterials  learning_materials        Sonnet  story 12 (+ web search)
package prompts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// DreyfusStages are the Dreyfus model stages, lowest first.
var DreyfusStages = []string{"novice", "advanced_beginner", "competent", "proficient", "expert"}

// DefaultDreyfusStage is the stage assumed when none is assessed.
const DefaultDreyfusStage = "novice"

// ForStage fills a system prompt template's {dreyfus_stage} with
// dreyfusStage, [DefaultDreyfusStage] when it is empty.
func ForStage(template, dreyfusStage string) string {
	if dreyfusStage == "" {
		dreyfusStage = DefaultDreyfusStage
	}
	return strings.ReplaceAll(template, "{dreyfus_stage}", dreyfusStage)
}

// JSON renders v as compact JSON like JavaScript's JSON.stringify: no HTML
// escaping, so code in prompts stays readable. Values that cannot be
// marshalled (which the prompt input types never contain) render as an
// error object rather than panicking.
func JSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf(`{"error":%q}`, err.Error())
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// List returns s, or an empty non-nil slice when s is nil, so it renders as
// [] rather than null.
func List[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Truncate returns s cut to its first max bytes (at a rune boundary) plus a
// marker saying how much was dropped. s within max is returned unchanged.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" […truncated %d chars]", len(s)-cut)
}

// TruncateMiddle returns s cut to max bytes of content, keeping the first
// quarter and the last three quarters with a marker in between: the end of a
// session transcript matters most, its start gives the context. s within max
// is returned unchanged.
func TruncateMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head := max / 4
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - (max - head)
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + fmt.Sprintf("\n[…%d chars omitted…]\n", tail-head) + s[tail:]
}
