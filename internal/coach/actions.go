package coach

// ActionType is action_log.action_type. The 29 known types are the constants
// below: the 24 of spec story 4, explain_completed and review_completed
// (story 11), dashboard_loaded (story 12), and coaching_pipeline and
// session_end, which story 9's flows log (NOTES.md).
type ActionType string

// Action types with the WebSocket trigger and data each carries (spec story 4).
const (
	ActionFileOpen                ActionType = "file_open"                 // file:open {path}
	ActionFileSave                ActionType = "file_save"                 // file:save {path, charCount}
	ActionFileClose               ActionType = "file_close"                // file:close {path}
	ActionBufferSummary           ActionType = "buffer_summary"            // 30 s timer {path, editCount, charDelta, charCount}
	ActionBufferSignificantChange ActionType = "buffer_significant_change" // delta threshold {path, previousCharCount, newCharCount, delta}
	ActionTabSwitch               ActionType = "tab_switch"                // editor:tab_switch {fromPath, toPath}
	ActionSelection               ActionType = "selection"                 // editor:selection {path, range, textLength}
	ActionHintLevelChange         ActionType = "hint_level_change"         // hints:level_change {level, previousLevel}
	ActionExplainRequested        ActionType = "explain_requested"         // user:explain {path, range}
	ActionReviewRequested         ActionType = "review_requested"          // user:review {}
	ActionIdleStart               ActionType = "idle_start"                // user:idle_start {lastActionTimestamp}
	ActionIdleEnd                 ActionType = "idle_end"                  // user:idle_end {}
	ActionSessionStarted          ActionType = "session_started"           // session:start {issueNumber}
	ActionSessionResumed          ActionType = "session_resumed"           // session:resume {previousSessionId}
	ActionSessionEnded            ActionType = "session_ended"             // session:end {status, durationMs}
	ActionPhaseStarted            ActionType = "phase_started"             // phase → active {phaseId, phaseNumber, title}
	ActionPhaseCompleted          ActionType = "phase_completed"           // phase → complete {phaseId, phaseNumber, title}
	ActionCoachingMessage         ActionType = "coaching_message"          // backend sends a message {messageType}
	ActionNudgeSent               ActionType = "nudge_sent"                // Observer nudges {signal, confidence}
	ActionNudgeSuppressed         ActionType = "nudge_suppressed"          // Observer suppresses {signal, confidence, reason}
	ActionObserverMuted           ActionType = "observer_muted"            // observer:mute {muted}
	ActionMCPToolCall             ActionType = "mcp_tool_call"             // MCP tool invoked {toolName, sessionId}
	ActionDecorationsApplied      ActionType = "decorations_applied"       // backend sends decorations {path, count}
	ActionFileHintsApplied        ActionType = "file_hints_applied"        // backend sends hints {paths}
	ActionExplainCompleted        ActionType = "explain_completed"         // story 11 {path, model, latency_ms, success, error?}
	ActionReviewCompleted         ActionType = "review_completed"          // story 11 {kataId, level, passed, model, latency_ms, success, error?}
	ActionDashboardLoaded         ActionType = "dashboard_loaded"          // story 12 {statsPeriod, issuesLoaded, materialsLoaded}
	ActionCoachingPipeline        ActionType = "coaching_pipeline"         // story 9 pipeline finished
	ActionSessionEnd              ActionType = "session_end"               // story 9 paige_end_session wrap-up
)

// ActionTypes lists every known action type in the order above.
var ActionTypes = []ActionType{
	ActionFileOpen, ActionFileSave, ActionFileClose, ActionBufferSummary,
	ActionBufferSignificantChange, ActionTabSwitch, ActionSelection,
	ActionHintLevelChange, ActionExplainRequested, ActionReviewRequested,
	ActionIdleStart, ActionIdleEnd, ActionSessionStarted, ActionSessionResumed,
	ActionSessionEnded, ActionPhaseStarted, ActionPhaseCompleted,
	ActionCoachingMessage, ActionNudgeSent, ActionNudgeSuppressed,
	ActionObserverMuted, ActionMCPToolCall, ActionDecorationsApplied,
	ActionFileHintsApplied, ActionExplainCompleted, ActionReviewCompleted,
	ActionDashboardLoaded, ActionCoachingPipeline, ActionSessionEnd,
}

var knownActions = func() map[ActionType]bool {
	m := make(map[ActionType]bool, len(ActionTypes))
	for _, t := range ActionTypes {
		m[t] = true
	}
	return m
}()

// Valid reports whether t is one of the 29 known action types.
func (t ActionType) Valid() bool { return knownActions[t] }

// Sessionless reports whether an action of type t may be logged with no
// session: dashboard_loaded, since the dashboard is what a user sees before
// starting one (issue 13). Every other type belongs to a session.
func (t ActionType) Sessionless() bool { return t == ActionDashboardLoaded }

// ObserverRelevant reports whether the Observer reacts to t (the "Observer?"
// column of spec story 4). Types added by later stories are not relevant.
func (t ActionType) ObserverRelevant() bool {
	switch t {
	case ActionFileOpen, ActionFileSave, ActionFileClose, ActionBufferSummary,
		ActionBufferSignificantChange, ActionTabSwitch, ActionSelection,
		ActionHintLevelChange, ActionExplainRequested, ActionReviewRequested,
		ActionIdleStart, ActionIdleEnd, ActionPhaseStarted, ActionPhaseCompleted:
		return true
	}
	return false
}
