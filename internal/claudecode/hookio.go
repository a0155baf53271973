// Package claudecode is Paige's side of Claude Code: the hook input and
// output JSON, the PreToolUse read-only decision table, the merge of Paige's
// MCP server and hooks into Claude Code's settings files (and their exact
// removal), and PAIGE_MODE.
//
// It owns no data: whether a coaching session is active comes from the coach
// ([store.CoachingActive] in internal/coach/store), and the transcripts
// waiting to be learned from are learn's (internal/learn/queue). The decision
// table and the settings merge are pure functions over plain data.
package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// HookInput is the JSON Claude Code writes to a command hook's stdin. Fields
// an event does not carry are empty.
type HookInput struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	PermissionMode string          `json:"permission_mode,omitempty"`
	ToolName       string          `json:"tool_name,omitempty"`  // PreToolUse
	ToolInput      json.RawMessage `json:"tool_input,omitempty"` // PreToolUse
	Reason         string          `json:"reason,omitempty"`     // SessionEnd: clear, logout, prompt_input_exit, other
	Source         string          `json:"source,omitempty"`     // SessionStart: startup, resume, clear, compact
}

// MaxHookInput bounds how much of stdin a hook reads (tool inputs carry whole
// files for Write).
const MaxHookInput = 64 << 20

// ErrEmptyInput is returned by [ReadHookInput] when stdin holds nothing.
var ErrEmptyInput = errors.New("claudecode: empty hook input")

// ReadHookInput reads and decodes one hook input from r. Unknown fields are
// ignored; malformed JSON is an error, never a panic.
func ReadHookInput(r io.Reader) (HookInput, error) {
	var in HookInput
	data, err := io.ReadAll(io.LimitReader(r, MaxHookInput+1))
	if err != nil {
		return in, fmt.Errorf("read hook input: %w", err)
	}
	if len(data) > MaxHookInput {
		return in, fmt.Errorf("hook input larger than %d bytes", MaxHookInput)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return in, ErrEmptyInput
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return in, fmt.Errorf("decode hook input: %w", err)
	}
	return in, nil
}

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
