package classify

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

func user(s string) learn.Turn      { return learn.Turn{Role: learn.User, Content: s} }
func assistant(s string) learn.Turn { return learn.Turn{Role: learn.Assistant, Content: s} }

type tc struct {
	in   string
	want learn.SignalType
}

func run(t *testing.T, tests []tc) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Classify(user(tt.in)); got.Type != tt.want {
				t.Errorf("Classify(%q): got %s (%s), want %s", tt.in, got.Type, got.Pattern, tt.want)
			}
		})
	}
}

// The plan's task 3 tests.
func TestPlanTask3(t *testing.T) {
	t.Run("greetings are noise", func(t *testing.T) {
		run(t, []tc{{"hi", "noise"}, {"Hello", "noise"}, {"hey", "noise"}, {"good morning", "noise"}})
	})
	t.Run("confirmations are noise", func(t *testing.T) {
		run(t, []tc{{"ok", "noise"}, {"thanks", "noise"}, {"got it", "noise"}, {"sure", "noise"}, {"yes", "noise"}})
	})
	t.Run("assistant turns are noise", func(t *testing.T) {
		if got := Classify(assistant("Here's the code...")).Type; got != learn.SignalNoise {
			t.Errorf("got %s, want noise", got)
		}
	})
	t.Run("empty and short content is noise", func(t *testing.T) {
		run(t, []tc{{"", "noise"}, {"do it", "noise"}})
	})
	t.Run("preferences", func(t *testing.T) {
		run(t, []tc{{"I prefer using pnpm", "preference"}, {"I always use TypeScript", "preference"},
			{"I never use var", "preference"}, {"I hate default exports", "preference"}})
	})
	t.Run("corrections", func(t *testing.T) {
		run(t, []tc{{"No, that's wrong", "correction"}, {"No, I meant the other file", "correction"}, {"That's incorrect", "correction"}})
	})
	t.Run("policies", func(t *testing.T) {
		run(t, []tc{{"We always run tests before pushing", "policy"}, {"Our standard is to use ESLint", "policy"},
			{"We never push to main directly", "policy"}})
	})
	t.Run("decisions", func(t *testing.T) {
		run(t, []tc{{"Let's go with Clerk for auth", "decision"}, {"I've decided to use OTEL", "decision"}, {"We'll use pnpm", "decision"}})
	})
	t.Run("substantial messages are factual", func(t *testing.T) {
		run(t, []tc{{"The project uses TanStack Start with a PostgreSQL database running on port 15432", "factual"}})
	})
	t.Run("signal beats greeting in longer messages", func(t *testing.T) {
		run(t, []tc{{"Hi, I prefer using pnpm for everything", "preference"}})
	})
	t.Run("filterSignalTurns", func(t *testing.T) {
		got := FilterSignal([]learn.Turn{user("hi"), user("I prefer pnpm"), assistant("OK, using pnpm"), user("thanks"), user("We always write tests first")})
		want := []learn.Turn{user("I prefer pnpm"), user("We always write tests first")}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// Where the plan's patterns misfire, and the commands it lacks.
func TestImprovements(t *testing.T) {
	run(t, []tc{
		{"What am I doing wrong?", "noise"},
		{"What am I doing wrong", "noise"},
		{"Why is the wrong file open?", "noise"},
		{"The test prints the wrong output when the cache is cold and I cannot tell why", "factual"},
		{"If I want to deploy, which command do I run?", "noise"},
		{"If I always use pnpm here, the lockfile breaks, so keep npm for the docs site", "factual"},
		{"I want you to add a login page", "noise"},
		{"Never push to main", "policy"},
		{"Always run go vet before committing.", "policy"},
		{"Do not commit the .env file", "policy"},
		{"Please make sure to run the migrations first", "policy"},
		{"You edited the wrong file, it is config/prod.yaml", "correction"},
		{"To release:\n1. bump the version\n2. tag it\n3. push the tag", "procedure"},
		{"@remember the staging DB is on port 5433", "remember"},
		{"@forget the staging DB port", "forget"},
		{"We decided to keep Postgres for analytics", "decision"},
		{"It’s wrong, use the other tsconfig", "correction"},
	})
}

func TestCommandMatch(t *testing.T) {
	got := Classify(user("@remember: deploys go through fly.io"))
	want := learn.Classification{Type: learn.SignalRemember, Pattern: "@remember", Confidence: 1, Match: "deploys go through fly.io"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSignals(t *testing.T) {
	got := Signals("Thanks for the fix. I prefer tabs over spaces! Never push to main.\nWhat else?")
	var names, sents []string
	for _, s := range got {
		names = append(names, s.Rule.Name)
		sents = append(sents, s.Sentence)
	}
	if diff := cmp.Diff([]string{"preference", "imperative"}, names); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"I prefer tabs over spaces!", "Never push to main."}, sents); diff != "" {
		t.Errorf("sentences (-want +got):\n%s", diff)
	}
}

// The plan's task 7 classifier-accuracy checks on the sample fixture.
func TestQualityClassifier(t *testing.T) {
	turns, _, err := transcript.ReadFile("../transcript/testdata/sample-session.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]learn.SignalType{}
	for _, tr := range turns {
		if tr.Role == learn.User {
			got[tr.Content] = Classify(tr).Type
		}
	}
	want := map[string]learn.SignalType{
		"I prefer using pnpm for package management":                     learn.SignalPreference,
		"Let's set up the TypeScript project with strict checks enabled": learn.SignalFactual,
		"hi": learn.SignalNoise,
		"No, that's wrong — use the other tsconfig": learn.SignalCorrection,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	signal := FilterSignal(turns)
	if len(signal) >= len(turns) {
		t.Errorf("filter kept %d of %d turns", len(signal), len(turns))
	}
	for _, s := range signal {
		if s.Role != learn.User || s.Content == "hi" {
			t.Errorf("unexpected signal turn %+v", s)
		}
	}
}

func TestSidechainPromptIsNoise(t *testing.T) {
	tr := learn.Turn{Role: learn.User, Content: "Never push to main. I prefer pnpm.", Sidechain: true}
	if got := Classify(tr); got.Type != learn.SignalNoise || got.Pattern != "sidechain" {
		t.Errorf("got %+v, want sidechain noise", got)
	}
}

// An imperative that steers only the task at hand is not a durable rule;
// one that holds beyond it is, conditions included.
func TestTransientImperatives(t *testing.T) {
	t.Run("task-bound", func(t *testing.T) {
		run(t, []tc{
			{"Don't stop until the tests pass", "noise"},
			{"Don't stop until all functions are ported, tests pass, and you have 100% coverage.", "factual"},
			{"Please don't stop.", "noise"},
			{"Never give up until it compiles", "noise"},
			{"Don't do that now", "noise"},
			{"Don't push right now, CI is still red", "noise"},
			{"Don't merge yet", "noise"},
			{"Never mind", "noise"},
			{"never mind, I found the bug in the parser myself after all", "factual"},
			{"Don't mind the lint warnings", "noise"},
			{"Don't run the linter this time", "noise"},
			{"Always use the staging DB for now", "noise"},
			{"Don't use the cache today", "noise"},
			{"We don't deploy for now", "noise"},
		})
	})
	t.Run("durable", func(t *testing.T) {
		run(t, []tc{
			{"Never merge until CI is green", "policy"},
			{"Don't commit before the tests pass", "policy"},
			{"Always run go vet from now on", "policy"},
			{"Going forward, we always squash merge", "policy"},
			{"Don't stop the database container in tests", "policy"},
			{"Always keep in mind that prod runs Postgres 15", "policy"},
			{"Don't use now() in SQL migrations", "policy"},
			{"Don't use yet another wrapper library", "policy"},
			{"Never push to main", "policy"},
		})
	})
	t.Run("no signal sentence", func(t *testing.T) {
		if got := Signals("Port it to Rust. Don't stop until all tests pass. Never mind the docs."); len(got) != 0 {
			t.Errorf("Signals: got %+v, want none", got)
		}
	})
}

// A multi-step list is a procedure whatever its steps say; one step is not.
func TestClassifyProcedures(t *testing.T) {
	run(t, []tc{
		{"To release: 1. Always run make test 2. Tag the commit 3. Push the tag", "procedure"},
		{"To release: 1) bump the version 2) tag it", "procedure"},
		{"To release:\n1. Always run make test\n2. Never skip the changelog\n3. Push the tag", "procedure"},
		{"To release:\n1) I prefer to bump the version first\n2) tag it", "procedure"},
		{"Step 1: build\nStep 2: deploy", "procedure"},
		{"Never push to main. To deploy: (1) build (2) upload", "procedure"},
		{"- First, run make test\n- Then tag the commit\n- Finally, push the tag", "procedure"},
		{"To release: 1. Always run make test", "policy"},
		{"1. Never force-push", "policy"},
		{"- run make test\n- tag the commit\n- push the tag", "noise"},
		{"We pinned Go 1.22 and protobuf 2. Nothing else changes in the toolchain", "factual"},
		{"Do step 2. then step 1. of the plan", "noise"},
	})
}

func TestProcedures(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Procedure
		rest     string
	}{
		{"inline dots", "To release: 1. Always run make test 2. Tag the commit 3. Push the tag",
			[]Procedure{{Title: "To release:", Steps: []string{"Always run make test", "Tag the commit", "Push the tag"}}}, ""},
		{"inline parens, last step ends with its sentence", "Never push to main. To release: 1) test 2) tag. Thanks!",
			[]Procedure{{Title: "To release:", Steps: []string{"test", "tag"}}}, "Never push to main.\nThanks!"},
		{"lines with continuation", "Deploy:\n1. build\n   with -trimpath\n2. upload\nNever deploy on Fridays.",
			[]Procedure{{Title: "Deploy:", Steps: []string{"build with -trimpath", "upload"}}}, "Never deploy on Fridays."},
		{"no title", "Please do this.\n1. build\n2. test",
			[]Procedure{{Steps: []string{"build", "test"}}}, "Please do this."},
		{"two lists", "Release:\n1. tag\n2. push\nDeploy:\n1. build\n2. upload",
			[]Procedure{{Title: "Release:", Steps: []string{"tag", "push"}}, {Title: "Deploy:", Steps: []string{"build", "upload"}}}, ""},
		{"out-of-sequence numbers stay in the step", "1. install Go 1.22\n3. oops\n2. build",
			[]Procedure{{Steps: []string{"install Go 1.22 3. oops", "build"}}}, ""},
		{"bullets from first to finally", "Before a PR:\n- First, run make test\n\n- then lint it\n- Finally: push\nok?",
			[]Procedure{{Title: "Before a PR:", Steps: []string{"Run make test", "Lint it", "Push"}}}, "ok?"},
		{"one step", "To release: 1. push the tag", nil, "To release: 1. push the tag"},
		{"bullets without first", "- tag\n- push", nil, "- tag\n- push"},
		{"numbers that are no list", "Go 1.22 and 2. fine", nil, "Go 1.22 and 2. fine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest := Procedures(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("procedures (-want +got):\n%s", diff)
			}
			if rest != tt.rest {
				t.Errorf("rest: got %q, want %q", rest, tt.rest)
			}
		})
	}
}

func TestProcedureString(t *testing.T) {
	got := Procedure{Title: "To release:", Steps: []string{"test", "tag"}}.String()
	if want := "To release:\n1. test\n2. tag"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (Procedure{Steps: []string{"a", "b"}}).String(), "1. a\n2. b"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSentencesKeepPathsAndCode: a path pattern's dots and text in
// backquotes end no sentence.
func TestSentencesKeepPathsAndCode(t *testing.T) {
	for text, want := range map[string][]string{
		"We always run go test ./... before committing. Then push.": {"We always run go test ./... before committing.", "Then push."},
		"Run `make lint. then test` first. Done!":                   {"Run `make lint. then test` first.", "Done!"},
		"Test pkg/... and cmd/... too. Ok.":                         {"Test pkg/... and cmd/... too.", "Ok."},
		"Wait... what? Fine.":                                       {"Wait...", "what?", "Fine."},
	} {
		if got := Sentences(text); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Sentences(%q) = %q, want %q", text, got, want)
		}
	}
}
