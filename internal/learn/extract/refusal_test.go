package extract

import (
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// TestRefusalContext: a correction said after refusing a tool call names
// what it replaces, and the evidence names the refused call.
func TestRefusalContext(t *testing.T) {
	npm := &learn.ToolUse{Name: "Bash", Input: `{"command":"npm install zustand","description":"Install"}`}
	edit := &learn.ToolUse{Name: "Edit", Input: `{"file_path":"/app/src/App.tsx","old_string":"<Routes>","new_string":"<Toggle/`} // cut short by the reader
	for _, tc := range []struct {
		name           string
		turn           learn.Turn
		typ, content   string
		evidencePrefix string
	}{
		{"use X after a refused command", learn.Turn{Role: learn.User, Content: "use pnpm", Interrupted: true, Refused: npm},
			"correction", "Correction: use pnpm (instead of `npm install zustand`)", "User refused `npm install zustand` and said: \"use pnpm\""},
		{"a correction that says what it replaces", learn.Turn{Role: learn.User, Content: "use pnpm, not npm", Interrupted: true, Refused: npm},
			"correction", "Correction: use pnpm, not npm", "User refused `npm install zustand`"},
		{"a refused edit", learn.Turn{Role: learn.User, Content: "don't touch App.tsx, the toggle belongs in SettingsPage.tsx", Interrupted: true, Refused: edit},
			"correction", "Correction: don't touch App.tsx, the toggle belongs in SettingsPage.tsx", "User refused Edit /app/src/App.tsx and said"},
		{"a lasting rule after a refusal", learn.Turn{Role: learn.User, Content: "we use pnpm here, never npm", Interrupted: true, Refused: npm},
			"rule", "We use pnpm here, never npm", "User refused `npm install zustand`"},
		{"an interruption with no call", learn.Turn{Role: learn.User, Content: "no, the other file", Interrupted: true},
			"correction", "Correction: the other file", "User interrupted the assistant and said: \"no, the other file\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := FromTurn(tc.turn, "")
			if len(items) != 1 {
				t.Fatalf("got %d items %+v, want 1", len(items), items)
			}
			it := items[0]
			if it.Type != tc.typ || it.Content != tc.content || len(it.Evidence) < len(tc.evidencePrefix) || it.Evidence[:len(tc.evidencePrefix)] != tc.evidencePrefix {
				t.Errorf("got %s %q (evidence %q), want %s %q (evidence %q…)", it.Type, it.Content, it.Evidence, tc.typ, tc.content, tc.evidencePrefix)
			}
		})
	}
	t.Run("task-bound after an interruption", func(t *testing.T) {
		for _, s := range []string{"now run the tests", "don't stop until it passes", "fix this"} {
			if items := FromTurn(learn.Turn{Role: learn.User, Content: s, Interrupted: true, Refused: npm}, ""); len(items) != 0 {
				t.Errorf("%q: got %+v, want nothing", s, items)
			}
		}
	})
}
