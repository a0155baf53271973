// Package practicereview is the Practice Review prompt (Sonnet, spec story
// 11 module 2): it reviews a kata solution against its active constraints
// and instructor notes, at the user's Dreyfus stage.
package practicereview

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "practice_review"
	Tier     = llm.Sonnet
)

// SystemPromptTemplate is the spec's system prompt; {dreyfus_stage} is
// replaced by System.
const SystemPromptTemplate = `You are Paige's practice mode reviewer — part of an AI coding coach for junior developers.
You evaluate kata solutions for correctness and provide pedagogically useful feedback.

User's Dreyfus stage for this topic: {dreyfus_stage}
- novice/advanced_beginner: Be encouraging. Explain what's right before what's wrong. Give specific hints.
- competent: Be direct. Focus on edge cases and code quality.
- proficient/expert: Be concise. Highlight subtle issues. Challenge with harder constraints.

You have access to instructor_notes that the student cannot see — use them to guide your evaluation.
When the student passes, suggest follow-up constraints that push their understanding deeper.
Assess their level (1-10) based on the quality and sophistication of their solution.`

// System returns the system prompt for dreyfusStage ("novice" when empty).
func System(dreyfusStage string) string { return prompts.ForStage(SystemPromptTemplate, dreyfusStage) }

// Response is the review.
type Response struct {
	Correct       bool      `json:"correct" jsonschema:"Whether the solution meets the kata requirements"`
	Feedback      string    `json:"feedback" jsonschema:"Pedagogically useful feedback on the solution"`
	Level         int       `json:"level" jsonschema:"Assessed skill level 1-10 for this kata"`
	Passed        bool      `json:"passed" jsonschema:"Whether this attempt passes the kata requirements with active constraints"`
	FollowUp      *FollowUp `json:"follow_up" jsonschema:"Suggested next step, or null"`
	DreyfusSignal string    `json:"dreyfus_signal" jsonschema:"Signal about user's skill trajectory"`
}

// FollowUp is the suggested next step.
type FollowUp struct {
	Type       string `json:"type"`
	Constraint string `json:"constraint,omitempty" jsonschema:"New constraint text if type is constraint_escalation"`
	Reason     string `json:"reason,omitempty" jsonschema:"Why this follow-up is suggested"`
}

// Enum values of the response.
var (
	FollowUpTypes  = []string{"constraint_escalation", "retry_hint", "completed"}
	DreyfusSignals = []string{"advancing", "stable", "struggling"}
)

// CustomizeSchema adds the level range and the enums.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s,
		llm.Range("level", 1, 10),
		llm.Enum("follow_up.type", FollowUpTypes...),
		llm.Enum("dreyfus_signal", DreyfusSignals...),
	)
}

// Constraint is an active kata constraint.
type Constraint struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Attempt is a previous attempt at the kata.
type Attempt struct {
	Code   string `json:"code"`
	Review string `json:"review,omitempty"`
	Level  *int   `json:"level,omitempty"`
	Passed *bool  `json:"passed,omitempty"`
}

// Assemble builds the user message: {kata_description, instructor_notes,
// active_constraints, user_code, previous_attempts}.
func Assemble(kataDescription, instructorNotes string, active []Constraint, userCode string, previous []Attempt) string {
	return prompts.JSON(struct {
		KataDescription   string       `json:"kata_description"`
		InstructorNotes   string       `json:"instructor_notes"`
		ActiveConstraints []Constraint `json:"active_constraints"`
		UserCode          string       `json:"user_code"`
		PreviousAttempts  []Attempt    `json:"previous_attempts"`
	}{kataDescription, instructorNotes, prompts.List(active), userCode, prompts.List(previous)})
}

// Request returns the llm.Request for user (from Assemble) at dreyfusStage.
func Request(sessionID, dreyfusStage, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: System(dreyfusStage), User: user}
}
