// Package knowledgegaps is the Knowledge Gap Extraction prompt (Sonnet, spec
// story 9 module 3): from a finished session it names the topics the user
// struggled with and writes practice kata specs for them.
package knowledgegaps

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "knowledge_gap_extraction"
	Tier     = llm.Sonnet
)

// MaxActions is how many of the most recent actions Assemble sends; longer
// logs keep their last MaxActions entries (the spec leaves the size open; a
// session's action log can run to thousands of buffer summaries).
const MaxActions = 500

// SystemPrompt is the spec's system prompt.
const SystemPrompt = `You are Paige's learning analyst. Analyse a coding coaching session to identify
knowledge gaps — topics where the user struggled, needed excessive hints, or made repeated mistakes.
Generate practice kata specifications targeting those gaps. Be evidence-based: cite observable session data,
not assumptions.`

// Response is the analyst's reply.
type Response struct {
	KnowledgeGaps  []Gap          `json:"knowledge_gaps"`
	KataSpecs      []KataSpec     `json:"kata_specs"`
	SessionSummary SessionSummary `json:"session_summary"`
}

// Gap is one knowledge gap.
type Gap struct {
	Topic           string   `json:"topic"`
	Evidence        string   `json:"evidence" jsonschema:"Observable evidence from the session"`
	Severity        string   `json:"severity"`
	RelatedConcepts []string `json:"related_concepts"`
}

// KataSpec is one practice exercise.
type KataSpec struct {
	Title              string   `json:"title"`
	Description        string   `json:"description"`
	ScaffoldingCode    string   `json:"scaffolding_code"`
	TestCases          []string `json:"test_cases"`
	Constraints        []string `json:"constraints"`
	FollowUpConstraint *string  `json:"follow_up_constraint"`
}

// SessionSummary counts what happened in the session.
type SessionSummary struct {
	PhasesCompleted        int     `json:"phases_completed"`
	TotalTimeMinutes       float64 `json:"total_time_minutes"`
	HintsUsed              int     `json:"hints_used"`
	IndependentCompletions int     `json:"independent_completions"`
}

// Severities are the gap severities.
var Severities = []string{"low", "medium", "high"}

// CustomizeSchema adds the severity enum and non-negative counts.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s,
		llm.Enum("knowledge_gaps[].severity", Severities...),
		llm.Min("session_summary.phases_completed", 0),
		llm.Min("session_summary.total_time_minutes", 0),
		llm.Min("session_summary.hints_used", 0),
		llm.Min("session_summary.independent_completions", 0),
	)
}

// Action is one action_log row.
type Action struct {
	ActionType string `json:"action_type"`
	Data       any    `json:"data"`
	CreatedAt  string `json:"created_at"`
}

// Phase is one phase of the session's plan.
type Phase struct {
	Title     string `json:"title"`
	Status    string `json:"status"`
	HintLevel string `json:"hint_level"`
}

// ExistingGap is a gap already known, with how often it was seen.
type ExistingGap struct {
	Topic     string `json:"topic"`
	Frequency int    `json:"frequency"`
}

// Assemble builds the user message: {action_log, phases, existing_gaps}. Only
// the last MaxActions actions are sent.
func Assemble(actions []Action, phases []Phase, existing []ExistingGap) string {
	if len(actions) > MaxActions {
		actions = actions[len(actions)-MaxActions:]
	}
	return prompts.JSON(struct {
		ActionLog    []Action      `json:"action_log"`
		Phases       []Phase       `json:"phases"`
		ExistingGaps []ExistingGap `json:"existing_gaps"`
	}{prompts.List(actions), prompts.List(phases), prompts.List(existing)})
}

// Request returns the llm.Request for user (from Assemble).
func Request(sessionID, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: SystemPrompt, User: user}
}
