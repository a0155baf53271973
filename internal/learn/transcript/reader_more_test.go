package transcript

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
)

func findTurn(tb testing.TB, turns []learn.Turn, id string) learn.Turn {
	tb.Helper()
	for _, t := range turns {
		if t.MessageID == id {
			return t
		}
	}
	tb.Fatalf("no turn for message %s", id)
	return learn.Turn{}
}

func toolNames(t learn.Turn) []string {
	var out []string
	for _, u := range t.ToolUse {
		out = append(out, u.Name)
	}
	return out
}

func TestMergedBlocks(t *testing.T) {
	t.Run("short: text, thinking and two tool calls on five lines", func(t *testing.T) {
		turns, _ := readFile(t, "testdata/cc-2.1.38-short.jsonl", nil)
		tr := findTurn(t, turns, "msg_01MKH1ccEGrZGNPvu8pYiiQa")
		if want := "Let me check the project structure and try running the server to see the error."; tr.Content != want {
			t.Errorf("content: got %q, want %q (thinking and blank blocks excluded)", tr.Content, want)
		}
		if diff := cmp.Diff([]string{"Bash", "Glob"}, toolNames(tr)); diff != "" {
			t.Errorf("tools (-want +got):\n%s", diff)
		}
		if len(tr.ToolResults) != 2 || !tr.ToolResults[0].IsError || !tr.ToolResults[1].IsError {
			t.Errorf("results: got %+v, want two errors", tr.ToolResults)
		}
	})
	t.Run("tool_heavy: a tool result between two blocks of one message", func(t *testing.T) {
		turns, _ := readFile(t, "testdata/cc-2.1.38-tool_heavy.jsonl", nil)
		tr := findTurn(t, turns, "msg_019BN3FRqb7NU4DgBN5jdsym")
		if diff := cmp.Diff([]string{"Read", "WebFetch"}, toolNames(tr)); diff != "" {
			t.Errorf("tools (-want +got):\n%s", diff)
		}
		if len(tr.ToolResults) != 2 {
			t.Fatalf("results: got %d, want 2", len(tr.ToolResults))
		}
		if tr.ToolResults[0].ToolUseID != tr.ToolUse[0].ID {
			t.Errorf("first result for %s, want %s", tr.ToolResults[0].ToolUseID, tr.ToolUse[0].ID)
		}
		// The Read result ends in a system reminder, removed before the cut.
		if !strings.HasPrefix(tr.ToolResults[0].Content, "1→import \"phoenix_html\"") {
			t.Errorf("read result: %q", tr.ToolResults[0].Content)
		}
	})
	t.Run("subagent: four parallel tool calls", func(t *testing.T) {
		turns, _ := readFile(t, "testdata/cc-2.1.38-subagent.jsonl", nil)
		tr := findTurn(t, turns, "msg_01LvWnndr3MWQW8w3xEieBJx")
		if diff := cmp.Diff([]string{"WebFetch", "WebSearch", "WebSearch", "WebSearch"}, toolNames(tr)); diff != "" {
			t.Errorf("tools (-want +got):\n%s", diff)
		}
		if len(tr.ToolResults) != 4 {
			t.Errorf("results: got %d, want 4", len(tr.ToolResults))
		}
		u := byRole(turns, learn.User)
		if !strings.HasPrefix(u[0].Content, "websearch to learn how to fastest setup credo") {
			t.Errorf("slash command args lost: %q", u[0].Content)
		}
	})
}

func TestSidechain(t *testing.T) {
	t.Run("nested agent_progress", func(t *testing.T) {
		without, st := readFile(t, "testdata/cc-2.1.38-subagent.jsonl", nil)
		if st.Sidechain != 19 {
			t.Errorf("sidechain lines skipped: got %d, want 19", st.Sidechain)
		}
		with, _ := readFile(t, "testdata/cc-2.1.38-subagent.jsonl", &Options{IncludeSidechain: true})
		side := 0
		for _, tr := range with {
			if tr.Sidechain {
				side++
				assertClean(t, tr)
			}
		}
		// 1 prompt + 5 distinct subagent message ids (see the jq listing in the commit).
		if side != 6 || len(with) != len(without)+6 {
			t.Errorf("got %d sidechain turns of %d, want 6 of %d", side, len(with), len(without)+6)
		}
		sub := findTurn(t, with, "msg_0199s85GE5eqHtZm2Xpv7BsK")
		if len(sub.ToolUse) != 3 || len(sub.ToolResults) != 3 || !sub.ToolResults[0].IsError {
			t.Errorf("subagent turn: %d tools, results %+v", len(sub.ToolUse), sub.ToolResults)
		}
	})
	t.Run("top-level isSidechain lines", func(t *testing.T) {
		in := `{"type":"user","message":{"role":"user","content":"main question"}}
{"type":"user","isSidechain":true,"agentId":"a1","message":{"role":"user","content":"sub prompt"}}
{"type":"assistant","isSidechain":true,"agentId":"a1","message":{"id":"s1","role":"assistant","content":[{"type":"text","text":"sub answer"}]}}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"main answer"}]}}
`
		got, _ := readString(t, in, nil)
		if len(got) != 2 || got[1].Content != "main answer" {
			t.Errorf("default: got %+v, want main turns only", got)
		}
		got, _ = readString(t, in, &Options{IncludeSidechain: true})
		if len(got) != 4 {
			t.Errorf("included: got %d turns, want 4", len(got))
		}
	})
}

func TestMalformedAndTorn(t *testing.T) {
	in := `{"type":"user","message":{"role":"user","content":"first"}}
not json at all
{"type":"user","message":{"role":"user","content":
[1,2,3]

{"type":"assistant","message":{"id":"a","role":"assistant","content":"answer"}}
{"type":"user","message":{"role":"user","content":"torn`
	turns, st := readString(t, in, nil)
	if got, want := st, (Stats{Lines: 6, Malformed: 4}); got != want {
		t.Errorf("stats: got %+v, want %+v", got, want)
	}
	if len(turns) != 2 || turns[0].Content != "first" || turns[1].Content != "answer" {
		t.Errorf("turns: got %+v", turns)
	}
}

func TestLongLines(t *testing.T) {
	big := strings.Repeat("x", 16<<20) // a 16 MB tool result, far longer than the read buffer
	in := `{"type":"assistant","message":{"id":"a","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cat big"}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"` + big + `","is_error":false}]}}
{"type":"user","message":{"role":"user","content":"after the big line ` + strings.Repeat("y", 300<<10) + `"}}
`
	turns, st := readString(t, in, nil)
	if st.Malformed != 0 || len(turns) != 2 {
		t.Fatalf("got %d turns, stats %+v", len(turns), st)
	}
	if got := turns[0].ToolResults[0].Content; got != strings.Repeat("x", 200) {
		t.Errorf("result: got %d chars, want 200 x", len(got))
	}
	if !strings.HasPrefix(turns[1].Content, "after the big line yyy") || len(turns[1].Content) != 19+300<<10 {
		t.Errorf("long user line mangled: %d bytes", len(turns[1].Content))
	}
}

func TestScanStopsOnEmitError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Scan(strings.NewReader(`{"type":"user","message":{"role":"user","content":"a"}}`+"\n"), nil,
		func(learn.Turn) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("got %v, want boom", err)
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "  use pnpm  ", "use pnpm"},
		{"system reminder", "fix it<system-reminder>\nbe careful\n</system-reminder>", "fix it"},
		{"slash command keeps args", "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>the auth module</command-args>", "the auth module"},
		{"empty slash command", "<command-name>/mcp</command-name>\n            <command-message>mcp</command-message>\n            <command-args></command-args>", ""},
		{"local stdout", "<local-command-stdout>Reconnected to tidewave.</local-command-stdout>", ""},
		{"ide tags", "<ide_opened_file>The user opened the file /a.go in the IDE.</ide_opened_file>why does this fail?", "why does this fail?"},
		{"ide selection", "<ide_selection>The user selected lines 1-3:\nfoo</ide_selection> rename this", "rename this"},
		{"interrupt", "[Request interrupted by user for tool use]", ""},
		{"unclosed wrapper", "keep this <system-reminder>never closed", "keep this"},
		{"tag with attributes", `<ide_selection source="x">sel</ide_selection>ok`, "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clean(tt.in); got != tt.want {
				t.Errorf("Clean(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSkippedRecordTypes(t *testing.T) {
	for _, rec := range []string{
		`{"type":"progress","data":{"type":"hook_progress"},"message":{"role":"user","content":"x"}}`,
		`{"type":"system","subtype":"local_command","content":"x"}`,
		`{"type":"summary","summary":"Fixing the build","leafUuid":"u"}`,
		`{"type":"file-history-snapshot","snapshot":{}}`,
		`{"type":"queue-operation","operation":"enqueue","content":"x"}`,
		`{"type":"user","isMeta":true,"message":{"role":"user","content":"Stop hook feedback: x"}}`,
		`{"type":"something-new","message":{"role":"user","content":"x"}}`,
	} {
		turns, st := readString(t, rec+"\n", nil)
		if len(turns) != 0 || st.Skipped != 1 {
			t.Errorf("%s: %d turns, stats %+v; want skipped", rec, len(turns), st)
		}
	}
}
