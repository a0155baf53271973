// Package dreyfusassessment is the Dreyfus Stage Assessment prompt (Sonnet,
// spec story 9 module 4): it assesses the user's stage per skill area from
// evidence accumulated across sessions.
package dreyfusassessment

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "dreyfus_assessment"
	Tier     = llm.Sonnet
)

// SystemPrompt is the spec's system prompt.
const SystemPrompt = `You are Paige's skill assessor. Evaluate the user's competency across skill areas
using the Dreyfus model (novice → advanced_beginner → competent → proficient → expert).
Base assessments on accumulated evidence across sessions, not just the latest session.
Recommend how coaching should adapt for each assessed stage.`

// Response is the assessor's reply.
type Response struct {
	Assessments []Assessment `json:"assessments"`
}

// Assessment is the stage of one skill area.
type Assessment struct {
	SkillArea      string  `json:"skill_area"`
	Stage          string  `json:"stage"`
	PreviousStage  *string `json:"previous_stage"`
	Confidence     float64 `json:"confidence"`
	Evidence       string  `json:"evidence" jsonschema:"Observable evidence supporting the assessment"`
	Recommendation string  `json:"recommendation" jsonschema:"How to adjust coaching for this stage"`
}

// CustomizeSchema adds the stage enums and the confidence range.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s,
		llm.Enum("assessments[].stage", prompts.DreyfusStages...),
		llm.Enum("assessments[].previous_stage", prompts.DreyfusStages...),
		llm.Range("assessments[].confidence", 0, 1),
	)
}

// Evidence is what is known about one skill area across sessions.
type Evidence struct {
	SkillArea      string  `json:"skill_area"`
	Sessions       int     `json:"sessions"`
	HintTrend      string  `json:"hint_trend"`
	CompletionRate float64 `json:"completion_rate"`
}

// Current is a stored assessment.
type Current struct {
	SkillArea  string  `json:"skill_area"`
	Stage      string  `json:"stage"`
	Confidence float64 `json:"confidence"`
}

// RecentSession summarises the session just finished.
type RecentSession struct {
	PhasesCompleted        int `json:"phases_completed"`
	HintsUsed              int `json:"hints_used"`
	IndependentCompletions int `json:"independent_completions"`
}

// Assemble builds the user message: {accumulated_evidence, current_assessments, recent_session}.
func Assemble(evidence []Evidence, current []Current, recent RecentSession) string {
	return prompts.JSON(struct {
		AccumulatedEvidence []Evidence    `json:"accumulated_evidence"`
		CurrentAssessments  []Current     `json:"current_assessments"`
		RecentSession       RecentSession `json:"recent_session"`
	}{prompts.List(evidence), prompts.List(current), recent})
}

// Request returns the llm.Request for user (from Assemble).
func Request(sessionID, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: SystemPrompt, User: user}
}
