package observer

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
)

// The Observer's constants (spec story 10, D57–D60).
const (
	// Cooldown is the minimum time between two nudges (D58).
	Cooldown = 120 * time.Second
	// FlowWindow and FlowThreshold: more than FlowThreshold user actions
	// within FlowWindow is flow state (D59).
	FlowWindow    = 60 * time.Second
	FlowThreshold = 10
	// BufferTrigger is how many buffer updates since the last evaluation
	// trigger one (D60).
	BufferTrigger = 5
	// IdleCheckInterval is the idle timer's period; IdleAfter is how long
	// without user activity counts as idle (D56).
	IdleCheckInterval = 30 * time.Second
	IdleAfter         = 5 * time.Minute
	// NudgeThreshold is the confidence a nudge needs (D57).
	NudgeThreshold = observertriage.NudgeThreshold
)

// Trigger is why an evaluation was considered.
type Trigger string

// Triggers (FR-132).
const (
	TriggerNone        Trigger = ""
	TriggerFileOpen    Trigger = "file_open"
	TriggerFileSave    Trigger = "file_save"
	TriggerBufferEdits Trigger = "buffer_update"
	TriggerPhase       Trigger = "phase_transition"
	TriggerIdle        Trigger = "idle"
)

// Reason is why a triggered evaluation was skipped; ReasonNone means run it.
type Reason string

// Suppression reasons, in the order [Suppress] checks them (FR-133).
// Muted and Busy are silent; Cooldown and FlowState are logged as
// nudge_suppressed.
const (
	ReasonNone      Reason = ""
	ReasonMuted     Reason = "muted"
	ReasonCooldown  Reason = "cooldown"
	ReasonFlowState Reason = "flow_state"
	ReasonBusy      Reason = "evaluation_in_progress"
	// ReasonLowConfidence is the post-triage suppression (FR-141).
	ReasonLowConfidence Reason = "low_confidence"
)

// Logged reports whether a suppression for r is written to the action log
// as nudge_suppressed.
func (r Reason) Logged() bool {
	return r == ReasonCooldown || r == ReasonFlowState || r == ReasonLowConfidence
}

// State is one session's Observer state (the spec's ObserverState), kept in
// memory only (D62, D64). The zero State is an inactive, unmuted Observer
// that never nudged. State is plain data: the owner serialises access.
type State struct {
	SessionID      string
	Active         bool
	Muted          bool
	LastNudge      time.Time // zero: never
	LastEvaluation time.Time // zero: never
	LastActivity   time.Time
	// BufferUpdates counts buffer updates since the last evaluation.
	BufferUpdates int
	// Recent holds the times of the newest user actions within
	// FlowWindow, oldest first: at most FlowThreshold+1 of them, which is
	// all flow state needs (issue 15: at typing or load-tool speed a full
	// window held thousands, scanned on every trigger).
	Recent []time.Time
	// Evaluating is the spec's evaluationInProgress (FR-147).
	Evaluating bool
	// Suppressed is the reason logged for the current suppressed stretch:
	// further triggers suppressed for the same reason are not logged again
	// until an evaluation runs or the reason changes.
	Suppressed Reason
}

// userActivity reports whether an event of type t is the user doing
// something: it refreshes LastActivity and counts toward flow state. The
// Observer's own rows, lifecycle rows, phase transitions (made by Claude
// Code) and idle_start are not user activity.
func userActivity(t coach.ActionType) bool {
	if t == actionlog.EventBufferUpdate {
		return true
	}
	switch t {
	case coach.ActionIdleStart, coach.ActionPhaseStarted, coach.ActionPhaseCompleted:
		return false
	}
	return t.ObserverRelevant()
}

// Observe applies one bus event of the state's session at now and returns
// the trigger it fires, or TriggerNone. It records user activity (the
// sliding flow window and LastActivity) and counts buffer updates; the
// counter is reset by [State.BeginEvaluation], not here.
func (s *State) Observe(t coach.ActionType, now time.Time) Trigger {
	if userActivity(t) {
		s.LastActivity = now
		s.Recent = append(prune(s.Recent, now), now)
		if n := len(s.Recent); n > flowKeep {
			s.Recent = append(s.Recent[:0], s.Recent[n-flowKeep:]...)
		}
	}
	switch t {
	case coach.ActionFileOpen:
		return TriggerFileOpen
	case coach.ActionFileSave:
		return TriggerFileSave
	case coach.ActionPhaseStarted, coach.ActionPhaseCompleted:
		return TriggerPhase
	case actionlog.EventBufferUpdate:
		s.BufferUpdates++
		if s.BufferUpdates >= BufferTrigger {
			return TriggerBufferEdits
		}
	}
	return TriggerNone
}

// IdleTick is the 30 s timer's check at now: it returns TriggerIdle at
// every tick while the Observer is active and the user has been inactive
// for more than IdleAfter (FR-132); [Suppress] then applies as for any
// trigger (cooldown after a nudge). EC-71: an inactive state never
// triggers.
func (s *State) IdleTick(now time.Time) Trigger {
	if !s.Active || !Idle(s.LastActivity, now) {
		return TriggerNone
	}
	return TriggerIdle
}

// NoteSuppressed records that a trigger was suppressed for reason and
// reports whether to log nudge_suppressed: once per suppressed stretch, so
// not again while the same reason keeps suppressing (40 buffer updates in
// flow state log one row, not one per trigger).
func (s *State) NoteSuppressed(reason Reason) bool {
	if !reason.Logged() || s.Suppressed == reason {
		return false
	}
	s.Suppressed = reason
	return true
}

// Idle reports whether more than IdleAfter has passed since lastActivity.
func Idle(lastActivity, now time.Time) bool { return now.Sub(lastActivity) > IdleAfter }

// prune drops the times older than FlowWindow before now, reusing recent.
func prune(recent []time.Time, now time.Time) []time.Time {
	i := 0
	for i < len(recent) && now.Sub(recent[i]) > FlowWindow {
		i++
	}
	if i == 0 {
		return recent
	}
	return append(recent[:0], recent[i:]...)
}

// flowKeep is how many activity times [State.Observe] keeps: Suppress
// only asks whether more than FlowThreshold of the newest lie within
// FlowWindow.
const flowKeep = FlowThreshold + 1

// FlowCount returns how many of recent (oldest first) lie within FlowWindow
// of now.
func FlowCount(recent []time.Time, now time.Time) int {
	n := 0
	for i := len(recent) - 1; i >= 0 && now.Sub(recent[i]) <= FlowWindow; i-- {
		n++
	}
	return n
}

// Suppress decides, before any model call, whether a triggered evaluation
// runs. The checks run in the spec's order (FR-133): muted (silent),
// cooldown (less than Cooldown since the last nudge), flow state (more than
// FlowThreshold user actions in FlowWindow), and last the
// evaluationInProgress guard (EC-65, silent). It is pure and allocation
// free.
func Suppress(s *State, now time.Time) Reason {
	switch {
	case s.Muted:
		return ReasonMuted
	case !s.LastNudge.IsZero() && now.Sub(s.LastNudge) < Cooldown:
		return ReasonCooldown
	case FlowCount(s.Recent, now) > FlowThreshold:
		return ReasonFlowState
	case s.Evaluating:
		return ReasonBusy
	}
	return ReasonNone
}

// BeginEvaluation marks an evaluation started: the in-progress flag is set,
// the buffer counter reset (FR-148) and the suppressed stretch ended.
func (s *State) BeginEvaluation(Trigger) {
	s.Evaluating = true
	s.BufferUpdates = 0
	s.Suppressed = ReasonNone // the suppressed stretch, if any, is over
}

// Outcome is what a triage reply leads to.
type Outcome int

// Outcomes of [Decide].
const (
	// OutcomeQuiet: should_nudge false — no log, no message (FR-142).
	OutcomeQuiet Outcome = iota
	// OutcomeNudge: deliver the nudge (FR-140).
	OutcomeNudge
	// OutcomeLowConfidence: log nudge_suppressed low_confidence (FR-141).
	OutcomeLowConfidence
	// OutcomeContradictory: should_nudge with signal no_nudge — warn, no
	// nudge (EC-67).
	OutcomeContradictory
)

// Decide maps a triage reply to its outcome.
func Decide(r observertriage.Response) Outcome {
	switch {
	case !r.ShouldNudge:
		return OutcomeQuiet
	case r.Signal == "no_nudge":
		return OutcomeContradictory
	case r.Nudge():
		return OutcomeNudge
	}
	return OutcomeLowConfidence
}

// Ago renders d as a short human duration: "12s", "3m12s", "1h05m",
// "2d3h". Negative durations render as "0s".
func Ago(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	case s < 86400:
		return fmt.Sprintf("%dh%02dm", s/3600, (s%3600)/60)
	}
	return fmt.Sprintf("%dd%dh", s/86400, (s%86400)/3600)
}

// Since renders the time since t as [Ago], or "never" when t is zero.
func Since(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return Ago(now.Sub(t))
}

// Snapshot is what the triage context is built from.
type Snapshot struct {
	Phase        *coach.Phase // the active phase, nil when none
	Actions      []coach.Action
	LastSave     time.Time // zero: never saved
	LastNudge    time.Time // zero: never nudged
	Dreyfus      []coach.DreyfusAssessment
	LastActivity time.Time
}

// BuildContext assembles the triage context at now (FR-137): the current
// phase or nil, the actions with a human "ago" (Assemble keeps the last
// 20), the times since the last save and nudge, the most recently assessed
// Dreyfus stage ("novice" when none, FR-138) and whether the user is idle.
func BuildContext(s Snapshot, now time.Time) observertriage.Context {
	c := observertriage.Context{
		RecentActions:      make([]observertriage.Action, 0, len(s.Actions)),
		TimeSinceLastSave:  Since(s.LastSave, now),
		TimeSinceLastNudge: Since(s.LastNudge, now),
		DreyfusStage:       LatestStage(s.Dreyfus),
		UserIdle:           Idle(s.LastActivity, now),
	}
	if p := s.Phase; p != nil {
		files := append([]string{}, p.ExpectedFiles...)
		c.CurrentPhase = &observertriage.Phase{Number: p.Number, Title: p.Title, Description: p.Description, ExpectedFiles: files}
	}
	for _, a := range s.Actions {
		c.RecentActions = append(c.RecentActions, observertriage.Action{
			Type: string(a.Type), Path: actionPath(a.Data), Ago: Ago(now.Sub(a.CreatedAt)) + " ago",
		})
	}
	return c
}

// LatestStage returns the stage of the most recently assessed skill area,
// or "novice" when there is none.
func LatestStage(list []coach.DreyfusAssessment) string {
	var best *coach.DreyfusAssessment
	for i := range list {
		if best == nil || list[i].AssessedAt.After(best.AssessedAt) {
			best = &list[i]
		}
	}
	if best == nil || !best.Stage.Valid() {
		return string(coach.DefaultDreyfusStage)
	}
	return string(best.Stage)
}

// actionPath returns the path an action's data names ("path", or "toPath"
// for tab switches), "" when none.
func actionPath(data json.RawMessage) string {
	if len(data) == 0 {
		return ""
	}
	var d struct {
		Path   string `json:"path"`
		ToPath string `json:"toPath"`
	}
	if json.Unmarshal(data, &d) != nil {
		return ""
	}
	if d.Path != "" {
		return d.Path
	}
	return d.ToPath
}
