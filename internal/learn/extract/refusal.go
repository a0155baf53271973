package extract

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/paige-dev/paige/internal/learn"
)

// describeCall names a refused tool call in a few words: a shell command
// in backquotes ("`npm install zod`"), a file tool with its path ("Edit
// src/App.tsx"), else the tool's name; "" for nil. The input may be cut
// short (the reader keeps 500 bytes); what can be read is used.
func describeCall(u *learn.ToolUse) string {
	if u == nil {
		return ""
	}
	if cmd := oneLineCut(gjson.Get(u.Input, "command").String(), 80); cmd != "" {
		return "`" + cmd + "`"
	}
	for _, k := range []string{"file_path", "path", "notebook_path", "url"} {
		if v := oneLineCut(gjson.Get(u.Input, k).String(), 100); v != "" {
			return u.Name + " " + v
		}
	}
	return u.Name
}

// refusalEvidence quotes what the user said after stopping the assistant
// or refusing call.
func refusalEvidence(call *learn.ToolUse, sentence string) string {
	if d := describeCall(call); d != "" {
		return "User refused " + d + " and said: " + strings.TrimPrefix(evidence(sentence), "User said: ")
	}
	return "User interrupted the assistant and said: " + strings.TrimPrefix(evidence(sentence), "User said: ")
}

// oneLineCut returns the first line of s, trimmed and cut to n bytes ("…"
// marks a cut).
func oneLineCut(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > n {
		return cut(s, n) + "…"
	}
	return s
}
