// Package explainthis is the Explain This prompt (Sonnet, spec story 11
// module 1): it explains selected code at the user's Dreyfus stage, tied to
// the current coaching phase when there is one.
package explainthis

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "explain_this"
	Tier     = llm.Sonnet
)

// SystemPromptTemplate is the spec's system prompt; {dreyfus_stage} is
// replaced by System.
const SystemPromptTemplate = `You are Paige's code explanation engine — part of an AI coding coach for junior developers.
You explain code clearly and helpfully, calibrated to the user's skill level.

User's Dreyfus stage: {dreyfus_stage}
- novice/advanced_beginner: Use plain language, provide analogies, explain every concept. Avoid jargon.
- competent: Technical language is fine. Focus on "why" not "what". Skip basics.
- proficient/expert: Be terse and implementation-focused. Emphasise architectural context.

If the user is currently working through a coaching session, connect your explanation to their current task when relevant.`

// System returns the system prompt for dreyfusStage ("novice" when empty).
func System(dreyfusStage string) string { return prompts.ForStage(SystemPromptTemplate, dreyfusStage) }

// Response is the explanation.
type Response struct {
	Explanation     string   `json:"explanation" jsonschema:"Clear explanation of the selected code"`
	KeyConcepts     []string `json:"key_concepts" jsonschema:"Key concepts the code demonstrates"`
	Analogy         *string  `json:"analogy" jsonschema:"An analogy to aid understanding, or null if not useful"`
	RelatedFiles    []string `json:"related_files" jsonschema:"Files related to this code based on visible imports/references, or null"`
	PhaseConnection *string  `json:"phase_connection" jsonschema:"How this code relates to the user's current coaching phase, or null"`
}

// CustomizeSchema makes related_files nullable, as the spec has it.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s, llm.Nullable("related_files"))
}

// Phase is the current coaching phase, if any.
type Phase struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Assemble builds the user message: {selected_code, surrounding_context,
// file_path, language, current_phase}. Large contexts pass as-is (EC-81).
func Assemble(selectedText, surroundingContext, path, language string, phase *Phase) string {
	return prompts.JSON(struct {
		SelectedCode       string `json:"selected_code"`
		SurroundingContext string `json:"surrounding_context"`
		FilePath           string `json:"file_path"`
		Language           string `json:"language"`
		CurrentPhase       *Phase `json:"current_phase"`
	}{selectedText, surroundingContext, path, language, phase})
}

// Request returns the llm.Request for user (from Assemble) at dreyfusStage.
func Request(sessionID, dreyfusStage, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: System(dreyfusStage), User: user}
}
