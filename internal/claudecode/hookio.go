// Package claudecode is Paige's side of Claude Code: the PreToolUse hook's
// output JSON and read-only decision table, the merge of Paige's
// MCP server and hooks into Claude Code's settings files (and their exact
// removal), and PAIGE_MODE.
//
// It owns no data: whether a coaching session is active comes from the coach
// ([store.CoachingActive] in internal/coach/store), and the transcripts
// waiting to be learned from are learn's (internal/learn/queue). The decision
// table and the settings merge are pure functions over plain data. Claude
// Code's hook input and the SessionStart hook are internal/hook's, which
// must stay small (it runs in the paige-hook binary).
package claudecode

// PreToolUseOutput is the JSON a PreToolUse hook prints to deny a call.
type PreToolUseOutput struct {
	HookSpecificOutput PreToolUseDecision `json:"hookSpecificOutput"`
}

// PreToolUseDecision is the hookSpecificOutput of a PreToolUse hook.
type PreToolUseDecision struct {
	HookEventName            string `json:"hookEventName"`            // always "PreToolUse"
	PermissionDecision       string `json:"permissionDecision"`       // "allow", "deny" or "ask"
	PermissionDecisionReason string `json:"permissionDecisionReason"` // shown to Claude when denied
}

// DenyOutput returns the PreToolUse output that denies with reason.
func DenyOutput(reason string) PreToolUseOutput {
	return PreToolUseOutput{HookSpecificOutput: PreToolUseDecision{
		HookEventName:            "PreToolUse",
		PermissionDecision:       "deny",
		PermissionDecisionReason: reason,
	}}
}

// HookMessage is the JSON a hook prints to show the user a message and
// leave the decision to Claude Code's normal flow.
type HookMessage struct {
	SystemMessage string `json:"systemMessage"`
}

// SystemMessage returns the hook output that shows msg to the user.
func SystemMessage(msg string) HookMessage { return HookMessage{SystemMessage: msg} }
