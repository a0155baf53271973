package classify

import (
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// TestLastingAndCorrections: "from now on", "our X must", "we use X" are
// rules, "use X instead of Y" and "use X, not Y" corrections; task-bound
// instructions stay out.
func TestLastingAndCorrections(t *testing.T) {
	run(t, []tc{
		{"From now on, run go vet before you say something is done.", "policy"},
		{"going forward tag every resource with owner", "policy"},
		{"start the server with iex -S mix phx.server from now on", "policy"},
		{"our migrations must be reversible", "policy"},
		{"Our Oban jobs have to be idempotent.", "policy"},
		{"we use cobra for all commands", "policy"},
		{"use zod instead of yup", "correction"},
		{"Use thiserror rather than hand-written impls", "correction"},
		{"use uv, not pip", "correction"},
		{"I'd prefer modules over copy-pasted resources", "preference"},
		{"I'd rather have small commits", "preference"},
		{"we're going with tokio", "decision"},
		{"The decision is to keep Postgres", "decision"},
		// task-bound or requests: out
		{"now run the tests", "noise"},
		{"fix this", "noise"},
		{"Don't stop until the race detector is clean", "noise"},
		{"use the helper here", "noise"},
		{"don't touch App.tsx", "policy"}, // an imperative rule outside a refusal
		{"Don't run the slow tests this time", "noise"},
		{"from now on?", "noise"},
		{"Can our tests run in parallel?", "noise"},
	})
}

// TestAfterInterruption: after an interruption or refusal, "use X" and
// "don't …" correct what was stopped; lasting rules stay rules and
// task-bound instructions stay out.
func TestAfterInterruption(t *testing.T) {
	for _, tt := range []tc{
		{"use uv", "correction"},
		{"no, use cargo nextest run", "correction"},
		{"don't touch App.tsx, the toggle belongs in SettingsPage.tsx", "correction"},
		{"use mix test, the seeds are unrelated", "correction"},
		{"never reset the dev database, it has my fixtures", "policy"},
		{"we use pnpm here, never npm", "policy"},
		{"now run the tests", "noise"},
		{"don't stop until it compiles", "noise"},
		{"scroll back still doesn't work, can you look at the xterm config?", "noise"},
		{"Stop.", "noise"},
	} {
		turn := learn.Turn{Role: learn.User, Content: tt.in, Interrupted: true, Refused: &learn.ToolUse{Name: "Bash", Input: `{"command":"npm i"}`}}
		if got := Classify(turn); got.Type != tt.want {
			t.Errorf("after an interruption, Classify(%q) = %s (%s), want %s", tt.in, got.Type, got.Pattern, tt.want)
		}
	}
}

// TestAnalyzeAgreesWithSignals: the one-pass analysis finds the same
// sentences as Signals, and classifies by rule order, not sentence order.
func TestAnalyzeAgreesWithSignals(t *testing.T) {
	text := "Let's go with Clerk. I prefer tabs. Never push to main."
	a := Analyze(user(text))
	sigs := Signals(text)
	if len(a.Signals) != 3 || len(sigs) != 3 {
		t.Fatalf("analysis %d signals, Signals %d, want 3 and 3", len(a.Signals), len(sigs))
	}
	for i := range sigs {
		if a.Signals[i].Sentence != sigs[i].Sentence || a.Signals[i].Rule.Name != sigs[i].Rule.Name {
			t.Errorf("signal %d: analysis %q (%s), Signals %q (%s)", i, a.Signals[i].Sentence, a.Signals[i].Rule.Name, sigs[i].Sentence, sigs[i].Rule.Name)
		}
	}
	if a.Classification.Type != learn.SignalPreference || a.Classification.Match != "I prefer tabs." {
		t.Errorf("classification %+v, want the preference (first rule)", a.Classification)
	}
}
