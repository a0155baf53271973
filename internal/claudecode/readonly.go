package claudecode

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Decision is the answer to one PreToolUse call. The zero Decision allows.
type Decision struct {
	Deny   bool
	Reason string // why it is denied, written for Claude to show; empty when allowed
}

// maxDepth bounds how deep command substitutions and `sh -c` strings are
// followed; anything deeper is denied as unreadable.
const maxDepth = 8

// ReadOnlyTools are the Claude Code tools that write files; they are always
// denied during a coaching session.
var ReadOnlyTools = []string{"Write", "Edit", "MultiEdit", "NotebookEdit"}

// reasonPrefix starts every deny reason so Claude can tell the user why.
const reasonPrefix = "Paige coaching session is active: the code is the learner's to write (read-only mode). "

// DecideReadOnly decides a PreToolUse call during a coaching session
// (layers 1 and 2 of the spec's read-only principle): the file-writing tools
// are denied, Bash commands are denied when any command in them writes
// (redirections to files, tee, sed -i, mv, cp, rm, mkdir, touch, chmod, git
// add/commit/push and the like, also inside pipelines, lists, subshells,
// command substitutions and `sh -c` strings), and everything else is
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
		return Decision{}
	}
	if why := shellWrites(in.Command, 0); why != "" {
		return deny(fmt.Sprintf("This command writes (%s). Only read-only commands run during coaching; suggest the command to the learner instead.", why))
	}
	return Decision{}
}

func deny(msg string) Decision { return Decision{Deny: true, Reason: reasonPrefix + msg} }

// command is one simple command: its words and its redirections.
type command struct {
	args   []string
	redirs []redirect
}

type redirect struct{ op, target string }

// shellWrites returns a short description of the first write found in the
// bash command line s, or "" when it only reads.
func shellWrites(s string, depth int) string {
	if depth > maxDepth {
		return "nested too deeply to check"
	}
	lx := lex(s)
	for _, sub := range lx.subs {
		if why := shellWrites(sub, depth+1); why != "" {
			return why
		}
	}
	for _, c := range split(lx.toks) {
		if why := commandWrites(c, depth); why != "" {
			return why
		}
	}
	return ""
}

// split groups tokens into simple commands at control operators.
func split(toks []token) []command {
	var out []command
	var cur command
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tokOp:
			out = append(out, cur)
			cur = command{}
		case tokRedir:
			if len(cur.args) > 0 && cur.args[0] == "[[" && !strings.HasPrefix(t.val, "&") {
				cur.args = append(cur.args, t.val) // [[ a > b ]] compares strings
				continue
			}
			r := redirect{op: t.val}
			if i+1 < len(toks) && toks[i+1].kind == tokWord {
				r.target = toks[i+1].val
				i++
			}
			cur.redirs = append(cur.redirs, r)
		default:
			cur.args = append(cur.args, t.val)
		}
	}
	return append(out, cur)
}

// commandWrites checks one simple command's redirections and its program.
func commandWrites(c command, depth int) string {
	for _, r := range c.redirs {
		if why := redirectWrites(r); why != "" {
			return why
		}
	}
	return argsWrite(c.args, depth)
}

// safeTargets are files a redirection may write to without touching the project.
var safeTargets = map[string]bool{
	"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true,
}

func redirectWrites(r redirect) string {
	op := strings.TrimLeft(r.op, "0123456789")
	switch op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
	case ">&":
		if isDigits(r.target) || r.target == "-" {
			return "" // fd duplication such as 2>&1
		}
	default:
		return "" // input redirections and here-documents
	}
	if safeTargets[r.target] || strings.HasPrefix(r.target, "/dev/fd/") {
		return ""
	}
	return fmt.Sprintf("redirects output to %q with %s", r.target, r.op)
}
