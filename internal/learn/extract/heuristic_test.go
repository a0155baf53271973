package extract

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/transcript"
)

var fixed = time.Date(2026, 2, 11, 10, 0, 0, 0, time.UTC)

func TestHeuristicOnSample(t *testing.T) {
	turns, _, err := transcript.ReadFile("../transcript/testdata/sample-session.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Heuristic{Now: func() time.Time { return fixed }}.Extract(context.Background(), turns, "session:sample")
	if err != nil {
		t.Fatal(err)
	}
	want := []learn.Entry{
		{Type: learn.Preference, Content: "User prefers using pnpm for package management", Confidence: 0.8,
			Entities: []string{"pnpm"}, Evidence: `User said: "I prefer using pnpm for package management"`,
			Source: "session:sample", ExtractedAt: "2026-02-11T10:00:00Z"},
		{Type: learn.Correction, Content: "Correction: use the other tsconfig", Confidence: 0.8,
			Entities: []string{"tsconfig"}, Evidence: `User said: "No, that's wrong — use the other tsconfig"`,
			Source: "session:sample", ExtractedAt: "2026-02-11T10:00:00Z"},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(learn.Entry{}, "ID")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, e := range got {
		if e.ID == "" {
			t.Error("entry without id")
		}
	}
}

func TestFromTurn(t *testing.T) {
	tests := []struct {
		name, in, prev string
		want           []string // "type: content"
	}{
		{"preference", "Hi, I prefer tabs over spaces.", "", []string{"preference: User prefers tabs over spaces"}},
		{"never preference", "I never use var", "", []string{"preference: User never uses var"}},
		{"always push", "I always push small commits", "", []string{"preference: User always pushes small commits"}},
		{"usually try", "I usually try the tests first", "", []string{"preference: User usually tries the tests first"}},
		{"always with a name", "I always TDD", "", []string{"preference: User always TDD"}},
		{"imperative rule", "Never push to main!", "", []string{"rule: Never push to main"}},
		{"policy", "We always run tests before pushing.", "", []string{"rule: We always run tests before pushing"}},
		{"please rule", "Please make sure to run migrations first", "", []string{"rule: Make sure to run migrations first"}},
		{"decision", "Let's go with Clerk for auth", "", []string{"decision: Decided to go with Clerk for auth"}},
		{"decided", "I've decided to use OTEL.", "", []string{"decision: Decided to use OTEL"}},
		{"correction with answer", "No, I meant the other file: config/prod.yaml", "", []string{"correction: Correction: the other file: config/prod.yaml"}},
		{"bare correction uses the answer it rejects", "No, that's wrong", "Use npm install", []string{`correction: User rejected the assistant's answer: "Use npm install"`}},
		{"bare correction without context", "That's incorrect", "", nil},
		{"two signals", "I prefer pnpm. Never commit .env files.", "", []string{"preference: User prefers pnpm", "rule: Never commit .env files"}},
		{"remember", "@remember the staging DB listens on 5433", "", []string{"fact: The staging DB listens on 5433"}},
		{"remember a rule", "@remember never force-push", "", []string{"rule: Never force-push"}},
		{"procedure", "To release:\n1. bump the version\n2. tag it", "", []string{"procedure: To release:\n1. bump the version\n2. tag it"}},
		{"forget is not knowledge", "@forget the staging port", "", nil},
		{"task-bound imperative", "Port it to Rust. Don't stop until all functions are ported, tests pass, and you have 100% coverage.", "", nil},
		{"never mind", "Never mind, I found it", "", nil},
		{"durable rule with a condition", "Never merge until CI is green", "", []string{"rule: Never merge until CI is green"}},
		{"question", "What am I doing wrong?", "", nil},
		{"factual left to models", "The project uses TanStack Start with a PostgreSQL database on 15432", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, it := range FromTurn(learn.Turn{Role: learn.User, Content: tt.in}, tt.prev) {
				got = append(got, it.Type+": "+it.Content)
				if it.Evidence == "" {
					t.Errorf("item %q has no evidence", it.Content)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEntities(t *testing.T) {
	got := Entities("Never commit .env files to fly.io, use tsconfig.json and pnpm")
	want := []string{".env", "fly.io", "tsconfig.json", "pnpm"} // real entities, not "commit" or "files"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestEntriesDropsInvalid(t *testing.T) {
	got := Entries([]Item{{Type: "opinion", Content: "x"}, {Type: "Fact", Content: " ", Confidence: 1}, {Type: "RULE", Content: "Never X", Confidence: 3},
		{Type: "rule", Content: "Never Y", Confidence: -0.1}, {Type: "RULE", Content: "Never Z", Confidence: 1}}, "s", fixed)
	if len(got) != 1 || got[0].Type != learn.Rule || got[0].Content != "Never Z" || got[0].Entities == nil {
		t.Errorf("got %+v, want only the valid rule (a confidence out of range drops the item)", got)
	}
}

func TestFormatTranscript(t *testing.T) {
	turns := []learn.Turn{
		{Role: learn.User, Content: "I prefer pnpm"},
		{Role: learn.Assistant, Content: "OK", ToolUse: []learn.ToolUse{{Name: "Bash", Input: `{"command":"` + strings.Repeat("a", 300) + `"}`}}},
		{Role: learn.User, Content: strings.Repeat("log line\n", 1000)},
	}
	got := FormatTranscript(turns)
	if !strings.HasPrefix(got, "[USER]: I prefer pnpm\n\n[ASSISTANT]: OK\n  [TOOL: Bash — {\"command\":\"aaa") {
		t.Errorf("format: %.120q", got)
	}
	if !strings.Contains(got, "aaa]") || strings.Count(got, "a") > 200 {
		t.Errorf("tool input not cut to 150 bytes")
	}
	if !strings.HasSuffix(got, " […]") || len(got) > 4400 {
		t.Errorf("long turn not cut: %d bytes", len(got))
	}
}

// A multi-step list is one procedure with its ordered steps as content and
// the turn as evidence; signal sentences inside the steps belong to it, and
// those outside the list are entries of their own.
func TestFromTurnProcedures(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // "type: content"
	}{
		{"inline with signal words inside", "To release: 1. Always run make test 2. Tag the commit 3. Push the tag",
			[]string{"procedure: To release:\n1. Always run make test\n2. Tag the commit\n3. Push the tag"}},
		{"inline without signal words", "To release: 1. bump the version 2. tag it 3. push the tag",
			[]string{"procedure: To release:\n1. bump the version\n2. tag it\n3. push the tag"}},
		{"1) form on lines with a preference inside", "To deploy:\n1) I prefer to build with -trimpath\n2) upload the binary\n3) we never skip the smoke test",
			[]string{"procedure: To deploy:\n1. I prefer to build with -trimpath\n2. upload the binary\n3. we never skip the smoke test"}},
		{"1. form on lines", "Release steps:\n1. Never skip the changelog\n2. Tag the commit",
			[]string{"procedure: Release steps:\n1. Never skip the changelog\n2. Tag the commit"}},
		{"rule outside the list", "Never push to main. To release:\n1. Always run make test\n2. Push the tag\nI prefer signed tags.",
			[]string{"procedure: To release:\n1. Always run make test\n2. Push the tag", "rule: Never push to main", "preference: User prefers signed tags"}},
		{"bullets from first to finally", "- First, always run make test\n- Then tag the commit\n- Finally, push the tag",
			[]string{"procedure: 1. Always run make test\n2. Tag the commit\n3. Push the tag"}},
		{"two lists", "Release:\n1. tag\n2. push\nDeploy:\n1. build\n2. upload",
			[]string{"procedure: Release:\n1. tag\n2. push", "procedure: Deploy:\n1. build\n2. upload"}},
		{"one numbered item is not a procedure", "To release: 1. Always run make test",
			[]string{"rule: Always run make test"}},
		{"one bullet is not a procedure", "- First, never push to main",
			nil},
		{"plain bullets are not a procedure", "- tag the commit\n- push the tag", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, it := range FromTurn(learn.Turn{Role: learn.User, Content: tt.in}, "") {
				got = append(got, it.Type+": "+it.Content)
				if it.Type == string(learn.Procedure) {
					if want := `User said: "` + tt.in + `"`; it.Evidence != want {
						t.Errorf("evidence: got %q, want %q", it.Evidence, want)
					}
					if it.Confidence != 0.7 || it.Entities == nil {
						t.Errorf("procedure %+v: want confidence 0.7 and entities (maybe none)", it)
					}
				} else if it.Evidence == "" {
					t.Errorf("item %q has no evidence", it.Content)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvidenceCutsAtRuneBoundary(t *testing.T) {
	long := "To release: 1. " + strings.Repeat("ä", 200) + " 2. tag"
	items := FromTurn(learn.Turn{Role: learn.User, Content: long}, "")
	if len(items) != 1 {
		t.Fatalf("got %d items, want one procedure", len(items))
	}
	if ev := items[0].Evidence; !utf8.ValidString(ev) || !strings.HasSuffix(ev, "…\"") {
		t.Errorf("evidence %q is not valid UTF-8 cut with an ellipsis", ev)
	}
}
