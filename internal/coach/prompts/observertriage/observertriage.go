// Package observertriage is the Observer triage prompt (Haiku, spec story
// 10): given a snapshot of the user's activity it decides whether Paige
// should nudge now, and why.
package observertriage

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/llm"
)

// CallType is recorded in api_call_log; Tier is the model class.
const (
	CallType = "observer_triage"
	Tier     = llm.Haiku
)

// NudgeThreshold is the confidence at or above which a should_nudge reply is
// delivered; below it the nudge is suppressed as low_confidence.
const NudgeThreshold = 0.7

// MaxRecentActions is how many recent actions the snapshot carries.
const MaxRecentActions = 20

// SystemPrompt is the spec's system prompt.
const SystemPrompt = `You are the Observer — Paige's proactive coaching sensor.
You monitor a junior developer's activity during a guided coding session.
Your ONLY job: decide whether Paige should nudge the user right now.

You receive a context snapshot: current phase expectations, recent user actions, timing data, and Dreyfus stage.

Respond with a binary decision (nudge or don't) plus a signal type if nudging.

Signal types:
- wrong_file: User is actively editing a file not in the phase's expected file list
- scope_drift: User's changes are unrelated to the phase objective
- idle: No user actions for extended period — they may be stuck
- phase_complete: User's work appears to match phase expectations — suggest moving on
- edit_loop: User is repeatedly editing and reverting the same area — possible confusion

Be conservative. When in doubt, don't nudge. A false positive interrupts flow.
Novices get slightly more nudges. Competent developers get left alone unless something is clearly wrong.`

// Response is the triage decision.
type Response struct {
	ShouldNudge      bool             `json:"should_nudge"`
	Confidence       float64          `json:"confidence"`
	Signal           string           `json:"signal"`
	Reasoning        string           `json:"reasoning" jsonschema:"Internal reasoning — logged, not shown to user"`
	SuggestedContext SuggestedContext `json:"suggested_context" jsonschema:"Context passed through to nudge prompt for Claude Code"`
}

// SuggestedContext is passed through to the observer:nudge broadcast.
type SuggestedContext struct {
	CurrentFile      *string `json:"current_file"`
	ExpectedFile     *string `json:"expected_file"`
	TimeInFile       *string `json:"time_in_file"`
	PhaseDescription *string `json:"phase_description"`
}

// Signals are the triage signals; "no_nudge" goes with should_nudge false.
var Signals = []string{"wrong_file", "scope_drift", "idle", "phase_complete", "edit_loop", "no_nudge"}

// CustomizeSchema adds the signal enum and the confidence range.
func (Response) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s, llm.Range("confidence", 0, 1), llm.Enum("signal", Signals...))
}

// Nudge reports whether r should be delivered: should_nudge with confidence
// at or above NudgeThreshold.
func (r Response) Nudge() bool { return r.ShouldNudge && r.Confidence >= NudgeThreshold }

// Context is the snapshot the Observer sends (the spec's TriageContext).
type Context struct {
	CurrentPhase       *Phase   `json:"current_phase"`
	RecentActions      []Action `json:"recent_actions"`
	TimeSinceLastSave  string   `json:"time_since_last_save"`
	TimeSinceLastNudge string   `json:"time_since_last_nudge"`
	DreyfusStage       string   `json:"dreyfus_stage"`
	UserIdle           bool     `json:"user_idle"`
}

// Phase is the active phase's expectations.
type Phase struct {
	Number        int      `json:"number"`
	Title         string   `json:"title"`
	Description   string   `json:"description"`
	ExpectedFiles []string `json:"expected_files"`
}

// Action is one recent action with a human "ago" ("3m12s ago").
type Action struct {
	Type string `json:"type"`
	Path string `json:"path,omitempty"`
	Ago  string `json:"ago"`
}

// Assemble renders the snapshot as the user message. It keeps the last
// MaxRecentActions actions and defaults the Dreyfus stage to "novice".
func Assemble(c Context) string {
	if len(c.RecentActions) > MaxRecentActions {
		c.RecentActions = c.RecentActions[len(c.RecentActions)-MaxRecentActions:]
	}
	c.RecentActions = prompts.List(c.RecentActions)
	if c.DreyfusStage == "" {
		c.DreyfusStage = prompts.DefaultDreyfusStage
	}
	if c.CurrentPhase != nil {
		p := *c.CurrentPhase
		p.ExpectedFiles = prompts.List(p.ExpectedFiles)
		c.CurrentPhase = &p
	}
	return prompts.JSON(c)
}

// Request returns the llm.Request for user (from Assemble).
func Request(sessionID, user string) llm.Request {
	return llm.Request{CallType: CallType, SessionID: sessionID, Tier: Tier, System: SystemPrompt, User: user}
}
