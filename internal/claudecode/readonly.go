package claudecode

import (
	"encoding/json"
	"fmt"
)

// Decision is the answer to one PreToolUse call. The zero Decision allows.
type Decision struct {
	Deny   bool
	Reason string // why it is denied, written for Claude to show; empty when allowed
}

// ReadOnlyTools are the Claude Code tools that write files; they are always
// denied during a coaching session.
var ReadOnlyTools = []string{"Write", "Edit", "MultiEdit", "NotebookEdit"}

// reasonPrefix starts every deny reason so Claude can tell the user why.
const reasonPrefix = "Paige coaching session is active: the code is the learner's to write (read-only mode). "

// DecideReadOnly decides a PreToolUse call during a coaching session
// (layers 1 and 2 of the spec's read-only principle): the file-writing tools
// are denied, and a Bash command is allowed only when every part of it is
// on the guard's allowlist (see guard_shell.go): it fails closed, so a
// command it cannot parse, or a program or option it does not know, is
// denied with the reason. Other tools are allowed. It is pure and never
// panics, whatever the input.
func DecideReadOnly(toolName string, toolInput json.RawMessage) Decision {
	for _, t := range ReadOnlyTools {
		if toolName == t {
			return deny(fmt.Sprintf("%s is disabled. Explain the change and let the learner make it; you can show code in your reply, or point at lines with the Paige tools.", toolName))
		}
	}
	if toolName != "Bash" {
		return Decision{}
	}
	var in struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(toolInput, &in); err != nil || in.Command == "" {
		return Decision{} // Claude Code itself rejects a Bash call without a command
	}
	if why := walkLine(in.Command); why != "" {
		return deny(fmt.Sprintf("This command is not known to be read-only: %s. Only known read-only commands and options run during coaching "+
			"(no variable assignments, no redirects to files); use the Read tool, a simpler read-only command, or suggest the command to the learner.", why))
	}
	return Decision{}
}

func deny(msg string) Decision { return Decision{Deny: true, Reason: reasonPrefix + msg} }
