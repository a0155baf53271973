// Package coachagent is the Coach Agent prompt (Sonnet, spec story 9 module
// 2): it turns an implementation plan into phased, scaffolded coaching
// adapted to the user's Dreyfus stage and relevant memories.
package coachagent

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "coach_agent"
	Tier     = llm.Sonnet
)

// SystemPrompt is the spec's system prompt.
const SystemPrompt = `You are Paige's coaching engine — the pedagogical core of an AI coding coach.
You transform implementation plans into scaffolded, phased learning experiences.
Adapt guidance granularity to the user's Dreyfus stage: novices need specific line-level hints;
competent developers need directional guidance. Reference relevant memories to build continuity.`

// Response is the Coach Agent's reply.
type Response struct {
	Phases              []Phase `json:"phases"`
	MemoryConnection    *string `json:"memory_connection" jsonschema:"Cross-session connection, or null"`
	EstimatedDifficulty string  `json:"estimated_difficulty"`
}

// Phase is one coaching phase.
type Phase struct {
	Number                    int      `json:"number"`
	Title                     string   `json:"title"`
	Description               string   `json:"description" jsonschema:"Coaching message explaining what to do and why"`
	ExpectedFiles             []string `json:"expected_files"`
	HintLevel                 string   `json:"hint_level"`
	Hints                     Hints    `json:"hints"`
	KnowledgeGapOpportunities []string `json:"knowledge_gap_opportunities"`
}

// Hints are a phase's file and line hints.
type Hints struct {
	FileHints []FileHint `json:"file_hints"`
	LineHints []LineHint `json:"line_hints"`
}

// FileHint highlights a file in the explorer.
type FileHint struct {
	Path  string `json:"path"`
	Style string `json:"style"`
}

// LineHint highlights a line range in the editor.
type LineHint struct {
	Path      string `json:"path"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Style     string `json:"style"`
	HoverText string `json:"hover_text"`
}

// Enum values of the response.
var (
	HintLevels     = []string{"none", "file", "region", "line"}
	FileHintStyles = []string{"suggested", "important", "critical"}
	LineHintStyles = []string{"hint", "focus", "warning"}
	Difficulties   = []string{"beginner", "intermediate", "advanced"}
)

// CustomizeSchema adds the spec's enums and positive integers.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s,
		llm.Min("phases[].number", 1),
		llm.Enum("phases[].hint_level", HintLevels...),
		llm.Enum("phases[].hints.file_hints[].style", FileHintStyles...),
		llm.Min("phases[].hints.line_hints[].start", 1),
		llm.Min("phases[].hints.line_hints[].end", 1),
		llm.Enum("phases[].hints.line_hints[].style", LineHintStyles...),
		llm.Enum("estimated_difficulty", Difficulties...),
	)
}

// Memory is a memory the retrieval filter kept.
type Memory struct {
	Content       string `json:"content"`
	Connection    string `json:"connection"`
	UseInCoaching string `json:"use_in_coaching"`
}

// Assemble builds the user message: {plan, dreyfus_stage, relevant_memories}.
// An empty dreyfusStage is sent as "novice".
func Assemble(planText, dreyfusStage string, memories []Memory) string {
	if dreyfusStage == "" {
		dreyfusStage = prompts.DefaultDreyfusStage
	}
	return prompts.JSON(struct {
		Plan             string   `json:"plan"`
		DreyfusStage     string   `json:"dreyfus_stage"`
		RelevantMemories []Memory `json:"relevant_memories"`
	}{planText, dreyfusStage, prompts.List(memories)})
}

// Request returns the llm.Request for user (from Assemble).
func Request(sessionID, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: SystemPrompt, User: user}
}
