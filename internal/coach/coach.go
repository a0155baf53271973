// Package coach holds the domain types of the Paige coaching backend: the
// rows of the coaching database (sessions, plans, phases, hints, progress
// events, Dreyfus assessments, knowledge gaps, kata specs, the action log and
// the API call log) and the closed vocabularies their text columns use.
//
// The package is pure: no I/O, no SQL, no network. Persistence lives in
// internal/coach/store, file-system authority in internal/coach/workspace and
// the action timeline in internal/coach/actionlog; the protocol packages
// (wsapi, mcpapi) import these types to shape their payloads.
//
// JSON field names are camelCase, the form the WebSocket and MCP payloads use
// (spec story 6: `{ id, projectDir, issueNumber?, issueTitle?, startedAt }`).
// Timestamps are time.Time in UTC; the store writes them as ISO 8601 text.
package coach

import (
	"encoding/json"
	"time"
)

// SessionStatus is sessions.status: active, completed or abandoned.
type SessionStatus string

// Session statuses (spec story 2).
const (
	SessionActive    SessionStatus = "active"
	SessionCompleted SessionStatus = "completed"
	SessionAbandoned SessionStatus = "abandoned"
)

// Valid reports whether s is one of the three session statuses.
func (s SessionStatus) Valid() bool {
	return s == SessionActive || s == SessionCompleted || s == SessionAbandoned
}

// Session is one coaching session: one issue in one project (D17).
// IssueNumber is nil when the session was started without a GitHub issue.
// EndedAt is nil while the session is active.
type Session struct {
	ID          string        `json:"id"`
	ProjectDir  string        `json:"projectDir"`
	IssueNumber *int          `json:"issueNumber,omitempty"`
	IssueTitle  string        `json:"issueTitle,omitempty"`
	Status      SessionStatus `json:"status"`
	StartedAt   time.Time     `json:"startedAt"`
	EndedAt     *time.Time    `json:"endedAt,omitempty"`
}

// Plan is the raw implementation plan Claude Code produced for a session.
type Plan struct {
	ID          string    `json:"id"`
	SessionID   string    `json:"sessionId"`
	RawPlanText string    `json:"rawPlanText"`
	CreatedAt   time.Time `json:"createdAt"`
}

// PhaseStatus is phases.status: pending, active or complete.
type PhaseStatus string

// Phase statuses (spec story 2).
const (
	PhasePending  PhaseStatus = "pending"
	PhaseActive   PhaseStatus = "active"
	PhaseComplete PhaseStatus = "complete"
)

// Valid reports whether s is one of the three phase statuses.
func (s PhaseStatus) Valid() bool {
	return s == PhasePending || s == PhaseActive || s == PhaseComplete
}

// HintLevel is phases.hint_level. The coach agent's enum is none, file,
// region, line (NOTES.md); the UI may send other strings, which the store
// keeps as given.
type HintLevel string

// Hint levels of the coach agent schema.
const (
	HintNone   HintLevel = "none"
	HintFile   HintLevel = "file"
	HintRegion HintLevel = "region"
	HintLine   HintLevel = "line"
)

// Phase is one step of a plan. ExpectedFiles is never nil once read from the
// store. StartedAt is set when the phase first becomes active, CompletedAt
// when it becomes complete.
type Phase struct {
	ID            string      `json:"id"`
	PlanID        string      `json:"planId"`
	Number        int         `json:"number"`
	Title         string      `json:"title"`
	Description   string      `json:"description"`
	Status        PhaseStatus `json:"status"`
	HintLevel     HintLevel   `json:"hintLevel"`
	ExpectedFiles []string    `json:"expectedFiles"`
	StartedAt     *time.Time  `json:"startedAt,omitempty"`
	CompletedAt   *time.Time  `json:"completedAt,omitempty"`
}

// HintType is phase_hints.type: a whole-file hint or a line-range hint.
type HintType string

// Hint types (spec story 2).
const (
	HintTypeFile HintType = "file"
	HintTypeLine HintType = "line"
)

// PhaseHint is a file or line hint attached to a phase. StartLine and EndLine
// are set for line hints; HoverText is optional.
type PhaseHint struct {
	ID        string   `json:"id"`
	PhaseID   string   `json:"phaseId"`
	Type      HintType `json:"type"`
	Path      string   `json:"path"`
	StartLine *int     `json:"startLine,omitempty"`
	EndLine   *int     `json:"endLine,omitempty"`
	Style     string   `json:"style"`
	HoverText *string  `json:"hoverText,omitempty"`
}

// ProgressEvent is a phase-scoped event (hint_used, hint_escalated,
// review_requested, review_passed, …). Data is optional JSON (nil when absent).
type ProgressEvent struct {
	ID        string          `json:"id"`
	PhaseID   string          `json:"phaseId"`
	EventType string          `json:"eventType"`
	Data      json.RawMessage `json:"data,omitempty"`
	CreatedAt time.Time       `json:"createdAt"`
}

// DreyfusStage is dreyfus_assessments.stage.
type DreyfusStage string

// The five Dreyfus stages, from least to most skilled.
const (
	Novice              DreyfusStage = "novice"
	AdvancedBeginner    DreyfusStage = "advanced_beginner"
	Competent           DreyfusStage = "competent"
	Proficient          DreyfusStage = "proficient"
	Expert              DreyfusStage = "expert"
	DefaultDreyfusStage              = Novice
)

// Valid reports whether s is one of the five Dreyfus stages.
func (s DreyfusStage) Valid() bool {
	switch s {
	case Novice, AdvancedBeginner, Competent, Proficient, Expert:
		return true
	}
	return false
}

// DreyfusAssessment is the global (not per-project) skill assessment for one
// skill area; there is at most one row per SkillArea.
type DreyfusAssessment struct {
	ID         string       `json:"id"`
	SkillArea  string       `json:"skillArea"`
	Stage      DreyfusStage `json:"stage"`
	Confidence float64      `json:"confidence"`
	Evidence   string       `json:"evidence"`
	AssessedAt time.Time    `json:"assessedAt"`
}

// Severity is knowledge_gaps.severity: low, medium or high.
type Severity string

// Knowledge gap severities.
const (
	SeverityLow    Severity = "low"
	SeverityMedium Severity = "medium"
	SeverityHigh   Severity = "high"
)

// Valid reports whether s is low, medium or high.
func (s Severity) Valid() bool {
	return s == SeverityLow || s == SeverityMedium || s == SeverityHigh
}

// KnowledgeGap is a topic the developer struggled with in a session.
// RelatedConcepts is never nil once read from the store.
type KnowledgeGap struct {
	ID                string    `json:"id"`
	SessionID         string    `json:"sessionId"`
	Topic             string    `json:"topic"`
	Severity          Severity  `json:"severity"`
	Evidence          string    `json:"evidence"`
	RelatedConcepts   []string  `json:"relatedConcepts"`
	Frequency         int       `json:"frequency"`
	LastEncounteredAt time.Time `json:"lastEncounteredAt"`
	Addressed         bool      `json:"addressed"`
}

// KataConstraint is one level-gated constraint of a kata (D16): it unlocks
// once the developer's level reaches MinLevel (1–10).
type KataConstraint struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	MinLevel    int    `json:"minLevel"`
}

// KataAttempt is one practice attempt, appended to kata_specs.user_attempts.
// Review, Level and Passed are absent until the attempt has been reviewed.
type KataAttempt struct {
	Code        string           `json:"code"`
	Review      *string          `json:"review,omitempty"`
	Level       *int             `json:"level,omitempty"`
	Passed      *bool            `json:"passed,omitempty"`
	Constraints []KataConstraint `json:"constraints,omitempty"`
}

// KataSpec is a practice exercise generated for a knowledge gap.
// Constraints and UserAttempts are never nil once read from the store.
type KataSpec struct {
	ID              string           `json:"id"`
	KnowledgeGapID  string           `json:"knowledgeGapId"`
	Title           string           `json:"title"`
	Description     string           `json:"description"`
	ScaffoldingCode string           `json:"scaffoldingCode"`
	InstructorNotes string           `json:"instructorNotes"`
	Constraints     []KataConstraint `json:"constraints"`
	UserAttempts    []KataAttempt    `json:"userAttempts"`
}

// Action is one row of the action log: what happened in a session and when.
// Data is the action's JSON payload, nil when the action has none.
// SessionID is empty for an action logged outside a session (a
// [ActionType.Sessionless] type; stored as NULL).
type Action struct {
	ID        string          `json:"id"`
	SessionID string          `json:"sessionId"`
	Type      ActionType      `json:"actionType"`
	Data      json.RawMessage `json:"data,omitempty"`
	CreatedAt time.Time       `json:"createdAt"`
}

// APICall is one row of the API call log: one Claude call, successful or not.
// SessionID is empty for calls made outside a session (stored as NULL).
// LatencyMs is -1 for a failed call, whose tokens and cost are zero (EC-19).
type APICall struct {
	ID           string  `json:"id"`
	SessionID    string  `json:"sessionId,omitempty"`
	CallType     string  `json:"callType"`
	Model        string  `json:"model"`
	InputHash    string  `json:"inputHash"`
	LatencyMs    int64   `json:"latencyMs"`
	InputTokens  int64   `json:"inputTokens"`
	OutputTokens int64   `json:"outputTokens"`
	CostEstimate float64 `json:"costEstimate"`
	// CostUnknown marks a call to a model with no known price: its cost is
	// NULL in api_call_log (CostEstimate is then 0 and means nothing).
	CostUnknown bool      `json:"costUnknown,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
}
