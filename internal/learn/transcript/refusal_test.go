package transcript

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
)

const (
	rejectWith = `The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n`
	note       = `\n\nNote: The user's next message may contain a correction or preference. Pay close attention.`
)

// TestRefusals: the reason typed when rejecting a tool call is a user turn
// carrying the refused call; the first user turn after an interruption
// carries the interrupted call; the harness's own texts are not turns.
func TestRefusals(t *testing.T) {
	call := `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"npm install zod"}}]}}`
	call2 := `{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"tu2","name":"Bash","input":{"command":"mix ecto.reset"}}]}}`
	result := func(id, text string) string {
		return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","is_error":true,"content":"` + text + `"}]},"toolUseResult":"User rejected tool use"}`
	}
	user := func(text string) string { return `{"type":"user","message":{"role":"user","content":"` + text + `"}}` }
	interrupt := `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}`
	npm := &learn.ToolUse{ID: "tu1", Name: "Bash", Input: `{"command":"npm install zod"}`}
	reset := &learn.ToolUse{ID: "tu2", Name: "Bash", Input: `{"command":"mix ecto.reset"}`}
	for _, tc := range []struct {
		name  string
		lines []string
		want  []learn.Turn // user turns
	}{
		{"reason", []string{call, result("tu1", rejectWith+"we use pnpm here, never npm"), user("thanks")},
			[]learn.Turn{{Role: learn.User, Content: "we use pnpm here, never npm", Interrupted: true, Refused: npm}, {Role: learn.User, Content: "thanks"}}},
		{"reason with the memory note", []string{call, result("tu1", rejectWith+"use pnpm"+note)},
			[]learn.Turn{{Role: learn.User, Content: "use pnpm", Interrupted: true, Refused: npm}}},
		{"refused without a reason, then the next message", []string{call,
			result("tu1", `The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.`),
			interrupt, user("use pnpm, not npm"), user("now run the tests")},
			[]learn.Turn{{Role: learn.User, Content: "use pnpm, not npm", Interrupted: true, Refused: npm}, {Role: learn.User, Content: "now run the tests"}}},
		{"interrupted while a call ran", []string{call2, interrupt, user("never reset the dev database")},
			[]learn.Turn{{Role: learn.User, Content: "never reset the dev database", Interrupted: true, Refused: reset}}},
		{"interrupted with no call", []string{`{"type":"assistant","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"Thinking about it."}]}}`,
			`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}`, user("no, the other file")},
			[]learn.Turn{{Role: learn.User, Content: "no, the other file", Interrupted: true}}},
		{"AskUserQuestion clarification is not the user's words", []string{call, result("tu1", rejectWith+`The user wants to clarify these questions.\n    This means they may have additional information.`)},
			nil},
		{"an ordinary error is no refusal", []string{call, result("tu1", "exit status 1"), user("hm")},
			[]learn.Turn{{Role: learn.User, Content: "hm"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turns, _, err := Read(strings.NewReader(strings.Join(tc.lines, "\n")), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []learn.Turn
			for _, tr := range turns {
				if tr.Role == learn.User {
					got = append(got, tr)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("user turns (-want +got):\n%s", diff)
			}
		})
	}
}
