package transcript

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
)

const sample = "testdata/sample-session.jsonl"

func readFile(tb testing.TB, path string, opts *Options) ([]learn.Turn, Stats) {
	tb.Helper()
	turns, st, err := ReadFile(path, opts)
	if err != nil {
		tb.Fatalf("ReadFile(%s): %v", path, err)
	}
	return turns, st
}

func readString(tb testing.TB, s string, opts *Options) ([]learn.Turn, Stats) {
	tb.Helper()
	turns, st, err := Read(strings.NewReader(s), opts)
	if err != nil {
		tb.Fatalf("Read: %v", err)
	}
	return turns, st
}

func byRole(turns []learn.Turn, r learn.Role) []learn.Turn {
	var out []learn.Turn
	for _, t := range turns {
		if t.Role == r {
			out = append(out, t)
		}
	}
	return out
}

// The plan's task 2 tests, on the plan's fixture. The fixture's second user
// message reads "Let's set up the TypeScript project with strict checks
// enabled" (the plan's text differs); the assertions follow the fixture.
func TestPlanTask2(t *testing.T) {
	turns, _ := readFile(t, sample, nil)
	t.Run("parses user and assistant turns", func(t *testing.T) {
		if len(turns) == 0 {
			t.Fatal("no turns")
		}
		for _, tr := range turns {
			if tr.Role != learn.User && tr.Role != learn.Assistant {
				t.Errorf("role %q, want user or assistant", tr.Role)
			}
		}
	})
	t.Run("skips system and progress", func(t *testing.T) {
		for _, tr := range turns {
			if strings.Contains(tr.Content, "System prompt loaded") || strings.Contains(tr.Content, "Processing...") {
				t.Errorf("non-conversation text leaked: %q", tr.Content)
			}
		}
	})
	t.Run("deduplicates streaming assistant messages", func(t *testing.T) {
		n := 0
		for _, tr := range turns {
			if strings.Contains(tr.Content, "TypeScript strict mode") {
				n++
				if len(tr.ToolUse) != 1 {
					t.Errorf("merged turn has %d tool uses, want 1", len(tr.ToolUse))
				}
			}
		}
		if n != 1 {
			t.Errorf("got %d turns with the msg4 text, want 1", n)
		}
	})
	t.Run("skips isMeta", func(t *testing.T) {
		for _, tr := range turns {
			if strings.Contains(tr.Content, "[System prompt updated]") {
				t.Errorf("isMeta leaked: %q", tr.Content)
			}
		}
	})
	t.Run("string content", func(t *testing.T) {
		if !slices.ContainsFunc(turns, func(tr learn.Turn) bool { return strings.Contains(tr.Content, "root tsconfig") }) {
			t.Error("msg8 (string content) missing")
		}
	})
	t.Run("content block arrays", func(t *testing.T) {
		a := byRole(turns, learn.Assistant)
		if got, want := a[0].Content, "I'll use pnpm going forward."; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("tool_use", func(t *testing.T) {
		i := slices.IndexFunc(turns, func(tr learn.Turn) bool { return len(tr.ToolUse) > 0 })
		if i < 0 {
			t.Fatal("no turn with tool use")
		}
		if got := turns[i].ToolUse[0].Name; got != "Edit" {
			t.Errorf("got %q, want Edit", got)
		}
		if !strings.Contains(turns[i].ToolUse[0].Input, `"file_path":"tsconfig.json"`) {
			t.Errorf("input %q lacks file_path", turns[i].ToolUse[0].Input)
		}
	})
	t.Run("order", func(t *testing.T) {
		u := byRole(turns, learn.User)
		if !strings.Contains(u[0].Content, "pnpm") || !strings.Contains(u[1].Content, "TypeScript") {
			t.Errorf("user turns out of order: %q, %q", u[0].Content, u[1].Content)
		}
	})
}

// The plan's task 7 reader-fidelity checks.
func TestQualityReaderFidelity(t *testing.T) {
	turns, st := readFile(t, sample, nil)
	var users []string
	for _, tr := range byRole(turns, learn.User) {
		users = append(users, tr.Content)
	}
	want := []string{
		"I prefer using pnpm for package management",
		"Let's set up the TypeScript project with strict checks enabled",
		"hi",
		"No, that's wrong — use the other tsconfig",
	}
	if diff := cmp.Diff(want, users); diff != "" {
		t.Errorf("user turns (-want +got):\n%s", diff)
	}
	all := ""
	for _, tr := range turns {
		all += tr.Content + " "
	}
	for _, s := range []string{"System prompt", "Processing"} {
		if strings.Contains(all, s) {
			t.Errorf("turns contain %q", s)
		}
	}
	if got, want := st, (Stats{Lines: 12, Skipped: 3, Duplicates: 2}); got != want {
		t.Errorf("stats: got %+v, want %+v", got, want)
	}
}

// harness lists text that must never reach a turn.
var harness = []string{
	"<system-reminder", "</system-reminder>", "<command-name>", "<command-message>", "<command-args>",
	"<local-command", "[Request interrupted", "Stop hook feedback", "Caveat: The messages below",
	"Whenever you read a file, you should consider whether it would be considered malware",
	"Create beads (epic + tasks", // a skill body sent as an isMeta line
}

// TestRealTranscripts checks every transcript in testdata (copies of
// ../shared/fixtures/transcripts). The counts were verified by hand:
// assistant turns = distinct message.id of non-meta assistant lines with a
// non-blank text or tool_use block, counted with
//
//	jq -r 'select(.type=="assistant") | select([.message.content[]? |
//	  select((.type=="text" and (.text|test("\\S"))) or .type=="tool_use")]|length>0)
//	  | .message.id' F | sort -u | wc -l
//
// and user turns by reading every non-isMeta user line's text: in the 2.1.14
// files only the first prompt is user text (the rest are tool results or
// isMeta stop-hook feedback); in short.jsonl the "[Request interrupted…]"
// marker and the /exit-style local command lines leave only "mix phx.server
// doesnt seem to start"; in subagent.jsonl the slash command keeps its
// <command-args> text and "create the beads" follows; in tool_heavy.jsonl
// the /mcp command, its stdout and two interruption markers are harness,
// leaving "start phoenix in background" and the xterm.js question.
func TestRealTranscripts(t *testing.T) {
	tests := []struct {
		file            string
		user, assistant int
	}{
		{"cc-2.1.14-coverage-test-fix.jsonl", 1, 14},
		{"cc-2.1.14-hello-world-script.jsonl", 1, 4},
		{"cc-2.1.14-python-to-rust-port.jsonl", 1, 39},
		{"cc-2.1.14-stop-hook-fast-path-clean.jsonl", 1, 2},
		{"cc-2.1.14-stop-hook-reflection-first-stop.jsonl", 1, 6},
		{"cc-2.1.14-stop-hook-reflection-second-stop.jsonl", 1, 1},
		{"cc-2.1.14-stop-hook-uncommitted-changes.jsonl", 1, 4},
		{"cc-2.1.38-short.jsonl", 1, 1},
		{"cc-2.1.38-subagent.jsonl", 2, 12},
		{"cc-2.1.38-tool_heavy.jsonl", 2, 4},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			turns, st := readFile(t, "testdata/"+tt.file, nil)
			if got := len(byRole(turns, learn.User)); got != tt.user {
				t.Errorf("user turns: got %d, want %d", got, tt.user)
			}
			if got := len(byRole(turns, learn.Assistant)); got != tt.assistant {
				t.Errorf("assistant turns: got %d, want %d", got, tt.assistant)
			}
			if st.Malformed != 0 {
				t.Errorf("malformed: got %d, want 0", st.Malformed)
			}
			ids := map[string]bool{}
			for _, tr := range turns {
				assertClean(t, tr)
				if tr.Role == learn.Assistant {
					if ids[tr.MessageID] {
						t.Errorf("message %s split into several turns", tr.MessageID)
					}
					ids[tr.MessageID] = true
				}
				for _, r := range tr.ToolResults {
					if n := len([]rune(r.Content)); n > DefaultMaxResultChars {
						t.Errorf("tool result has %d runes, want <= %d", n, DefaultMaxResultChars)
					}
				}
			}
		})
	}
}

func assertClean(tb testing.TB, tr learn.Turn) {
	tb.Helper()
	texts := []string{tr.Content}
	for _, r := range tr.ToolResults {
		texts = append(texts, r.Content)
	}
	for _, s := range texts {
		for _, h := range harness {
			if strings.Contains(s, h) {
				tb.Errorf("%s turn leaks %q: %.120q", tr.Role, h, s)
			}
		}
	}
}
