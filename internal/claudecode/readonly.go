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

// maxDepth bounds how deep `sh -c`, `eval` and `watch` strings are parsed
// again; anything deeper is denied as unreadable.
const maxDepth = 8

// ReadOnlyTools are the Claude Code tools that write files; they are always
// denied during a coaching session.
var ReadOnlyTools = []string{"Write", "Edit", "MultiEdit", "NotebookEdit"}

// reasonPrefix starts every deny reason so Claude can tell the user why.
const reasonPrefix = "Paige coaching session is active: the code is the learner's to write (read-only mode). "

// DecideReadOnly decides a PreToolUse call during a coaching session
// (layers 1 and 2 of the spec's read-only principle): the file-writing tools
// are denied, and a Bash command is allowed only when every command in it
// is known to read (see [shellWrites]): it fails closed, so a command it
// cannot parse or classify is denied with the reason. Other tools are
// allowed. It is pure and never panics, whatever the input.
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
	if why := shellWrites(in.Command, 0); why != "" {
		return deny(fmt.Sprintf("This command is not known to be read-only (%s). Only read-only commands run during coaching; suggest the command to the learner instead.", why))
	}
	return Decision{}
}

func deny(msg string) Decision { return Decision{Deny: true, Reason: reasonPrefix + msg} }
