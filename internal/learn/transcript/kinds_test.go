package transcript

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// TestLineKinds reads one line of each kind Claude Code 2.x writes into a
// user message and checks which become user turns: only what the user
// typed does.
func TestLineKinds(t *testing.T) {
	const head = `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/repo","sessionId":"s1","version":"2.1.38","gitBranch":"main",`
	lines := []string{
		// a compaction summary, marked as such
		head + `"type":"user","isCompactSummary":true,"isVisibleInTranscriptOnly":true,"message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\n1. Always run mix test"},"uuid":"u1"}`,
		// one written by a version without the field
		head + `"type":"user","message":{"role":"user","content":[{"type":"text","text":"This session is being continued from a previous conversation that ran out of context.\n\nSummary: We always deploy on Fridays."}]},"uuid":"u2"}`,
		// a slash command and its local output
		head + `"type":"user","message":{"role":"user","content":"<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>"},"uuid":"u3"}`,
		head + `"type":"user","message":{"role":"user","content":"<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>"},"uuid":"u4"}`,
		// hook output (isMeta) and a system reminder
		head + `"type":"user","isMeta":true,"message":{"role":"user","content":"Stop hook feedback:\n[~/.claude/stop.sh]: run the tests"},"uuid":"u5"}`,
		head + `"type":"user","message":{"role":"user","content":"<system-reminder>The TodoWrite tool hasn't been used recently.</system-reminder>"},"uuid":"u6"}`,
		// a tool result only
		head + `"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test ./..."}}]},"uuid":"a1"}`,
		head + `"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"ok  \tgithub.com/x/y\t0.1s","is_error":false}]},"uuid":"u7"}`,
		// what the user typed, with a reminder around it
		head + `"type":"user","message":{"role":"user","content":"Never push to main without review.\n<system-reminder>x</system-reminder>"},"uuid":"u8"}`,
	}
	turns, st, err := Read(strings.NewReader(strings.Join(lines, "\n")), nil)
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, tr := range turns {
		if tr.Role == learn.User {
			users = append(users, tr.Content)
		}
	}
	if len(users) != 1 || users[0] != "Never push to main without review." {
		t.Errorf("user turns: got %q, want only the typed sentence", users)
	}
	if st.Compaction != 2 {
		t.Errorf("compaction: got %d, want 2", st.Compaction)
	}
	if st.Commands < 2 {
		t.Errorf("commands: got %d, want at least the slash command and its output", st.Commands)
	}
	if len(turns) != 2 || turns[0].Role != learn.Assistant || len(turns[0].ToolResults) != 1 {
		t.Errorf("the tool call and its result: got %+v", turns)
	}
}

// TestIsCompactionSummary: the opening, leading space allowed; a user
// quoting it later in a message is not a summary.
func TestIsCompactionSummary(t *testing.T) {
	for text, want := range map[string]bool{
		"This session is being continued from a previous conversation that ran out of context.": true,
		"\n This session is being continued from a previous conversation":                       true,
		"why does it say This session is being continued from a previous conversation?":         false,
		"": false,
	} {
		if got := IsCompactionSummary(text); got != want {
			t.Errorf("IsCompactionSummary(%q) = %v, want %v", text, got, want)
		}
	}
}
