package seed

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

func validSeed(tb testing.TB) *Seed {
	tb.Helper()
	s, err := Decode(fixture(tb, "valid-seed.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// formatCase is one input of a Format function and the text it must give.
type formatCase[T any] struct {
	name string
	in   T
	want string
}

// testFormat runs format on every case in a subtest of its name.
func testFormat[T any](t *testing.T, format func(T) string, cases []formatCase[T]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, format(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestFormatIdentitySummary(t *testing.T) {
	testFormat(t, FormatIdentitySummary, []formatCase[Identity]{
		{"populated", validSeed(t).Identity, "Identity: Ivy (working with Jens-Christian)\nCatchphrase: \"Ivy here, ready to go.\"\nStyle: adaptive | Timezone: Europe/Zurich | Locale: en-US"},
		{"defaults", Defaults().Identity, "Identity: PAI (working with User)\nCatchphrase: \"PAI here, ready to go.\"\nStyle: adaptive | Timezone: UTC | Locale: en-US"},
	})
}

func learnings(n int, confirmed bool, prefix string) []Learning {
	out := make([]Learning, n)
	for i := range out {
		out[i] = Learning{ID: fmt.Sprintf("%s%d", prefix, i), Content: fmt.Sprintf("%s %d", prefix, i+1), Source: "s",
			ExtractedAt: "2026-01-01T00:00:00Z", Confirmed: confirmed, Tags: []string{}}
		if confirmed {
			out[i].ConfirmedAt = fmt.Sprintf("2026-01-%02dT00:00:00Z", 20-i) // file order is newest first
		}
	}
	return out
}

func TestFormatLearningSummary(t *testing.T) {
	testFormat(t, FormatLearningSummary, []formatCase[Learned]{
		{"populated", validSeed(t).Learned, "Learnings: 3 patterns, 1 insight, 1 self-knowledge\n" +
			"Recent patterns:\n  - Prefers TypeScript over Python for all projects\n  - Writes tests before implementation (TDD mandatory)\n" +
			"Recent insights:\n  - Morning sessions are more productive for architecture work\n" +
			"Recent self-knowledge:\n  - Tends to over-explain when a concise answer would suffice"},
		{"empty", Defaults().Learned, ""},
		{"truncated at five", Learned{Patterns: learnings(8, true, "Item")}, "Learnings: 8 patterns, 0 insights, 0 self-knowledge\n" +
			"Recent patterns:\n  - Item 1\n  - Item 2\n  - Item 3\n  - Item 4\n  - Item 5\n  ... and 3 more"},
		{"only confirmed listed", Learned{Insights: append(learnings(1, true, "Yes"), learnings(2, false, "No")...)},
			"Learnings: 0 patterns, 3 insights, 0 self-knowledge\nRecent insights:\n  - Yes 1"},
		{"unconfirmed only: counts without lists", Learned{SelfKnowledge: learnings(1, false, "No")},
			"Learnings: 0 patterns, 0 insights, 1 self-knowledge"},
	})
}

func TestFormatProposals(t *testing.T) {
	p := func(id, status string) Proposal {
		return Proposal{ID: id, Type: TypeInsight, Content: "Content " + id, Source: "src_" + id, ExtractedAt: "2026-01-01T00:00:00Z", Status: status}
	}
	testFormat(t, FormatProposals, []formatCase[[]Proposal]{
		{"fixture", validSeed(t).State.Proposals, "Pending proposals (1):\n  1. [pattern] \"Prefers Chart.js over D3 for data visualization\" (from session_2026-01-30)"},
		{"empty", nil, ""},
		{"none pending", []Proposal{p("a", StatusAccepted), p("b", StatusRejected)}, ""},
		{"mixed", []Proposal{p("a", StatusPending), p("b", StatusRejected), p("c", StatusPending)},
			"Pending proposals (2):\n  1. [insight] \"Content a\" (from src_a)\n  2. [insight] \"Content c\" (from src_c)"},
	})
}

func TestFormatSessionState(t *testing.T) {
	testFormat(t, FormatSessionState, []formatCase[State]{
		{"full", validSeed(t).State, "Last session: 2026-01-30T18:45:00Z\nActive projects: pai-seed, reporter, ragent\nCheckpoint: checkpoint_2026-01-30_001"},
		{"empty", Defaults().State, "Last session: never\nActive projects: none"},
		{"no checkpoint", State{LastSessionAt: "2026-01-30T18:45:00Z", ActiveProjects: []string{"one"}}, "Last session: 2026-01-30T18:45:00Z\nActive projects: one"},
	})
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(tb testing.TB, name, got string) {
	tb.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		tb.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

func TestSessionContextGolden(t *testing.T) {
	for _, tt := range []struct{ format, file string }{{LayoutFull, "valid-seed.golden"}, {LayoutCompact, "valid-seed-compact.golden"}} {
		t.Run(tt.format, func(t *testing.T) {
			path := seedFile(t, fixture(t, "valid-seed.json"))
			got := SessionStartHook(path, ContextOptions{Format: tt.format})
			golden(t, tt.file, got+"\n")
		})
	}
}

func TestGenerateSessionContext(t *testing.T) {
	path := seedFile(t, fixture(t, "valid-seed.json"))
	sc, err := GenerateSessionContext(path, ContextOptions{})
	if err != nil || sc.NeedsSetup || sc.Config == nil || sc.ProposalCount != 1 {
		t.Fatalf("GenerateSessionContext = %+v", sc)
	}
	sections := strings.Split(sc.Context, "\n\n")
	heads := []string{"Seed: v1.0.0", "Identity: ", "Learnings: ", "Pending proposals (1):", "Last session: "}
	if len(sections) != len(heads) {
		t.Fatalf("sections = %d, want %d:\n%s", len(sections), len(heads), sc.Context)
	}
	for i, h := range heads {
		if !strings.HasPrefix(sections[i], h) {
			t.Errorf("section %d = %q, want prefix %q", i, sections[i], h)
		}
	}
	if sc.Config.Identity.AIName != "Ivy" {
		t.Errorf("config not returned")
	}
}

func TestGenerateSessionContextFirstRunAndErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
	}{{"missing file", nil}, {"default principal", fixture(t, "valid-seed-minimal.json")}} {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := GenerateSessionContext(seedFile(t, tt.data), ContextOptions{})
			want := SessionContext{Context: SetupMessage, NeedsSetup: true}
			if diff := cmp.Diff(want, sc); err != nil || diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("load error", func(t *testing.T) {
		dir := t.TempDir() // a directory where the seed should be: cannot be read
		sc, err := GenerateSessionContext(dir, ContextOptions{})
		if err == nil || !strings.Contains(err.Error(), "Failed to read seed file") {
			t.Errorf("GenerateSessionContext = %+v, want a read error", sc)
		}
		line := SessionStartHook(dir, ContextOptions{})
		if !strings.HasPrefix(line, ErrorPrefix+"Failed to read seed file") || strings.Contains(line, "\n") {
			t.Errorf("hook text = %q, want one error line", line)
		}
	})
}

func TestGenerateSessionContextOmitsEmptySections(t *testing.T) {
	s := validSeed(t)
	s.Learned = Learned{}
	s.State.Proposals = s.State.Proposals[1:] // accepted and rejected only
	path := seedFile(t, nil)
	if err := Write(path, s); err != nil {
		t.Fatal(err)
	}
	sc, err := GenerateSessionContext(path, ContextOptions{})
	if err != nil || sc.ProposalCount != 0 {
		t.Fatalf("GenerateSessionContext = %+v", sc)
	}
	if strings.Contains(sc.Context, "Learnings:") || strings.Contains(sc.Context, "Pending proposals") || strings.Contains(sc.Context, "\n\n\n") {
		t.Errorf("empty sections not omitted:\n%s", sc.Context)
	}
	if n := strings.Count(sc.Context, "\n\n"); n != 2 {
		t.Errorf("section breaks = %d, want 2:\n%s", n, sc.Context)
	}
}

func TestSessionStartHook(t *testing.T) {
	valid := SessionStartHook(seedFile(t, fixture(t, "valid-seed.json")), ContextOptions{})
	if !strings.HasPrefix(valid, "Seed: v1.0.0\n\nIdentity: Ivy") {
		t.Errorf("hook text = %q", valid)
	}
	if got := SessionStartHook(seedFile(t, nil), ContextOptions{}); got != SetupMessage {
		t.Errorf("first run = %q, want %q", got, SetupMessage)
	}
	got := SessionStartHook(seedFile(t, []byte(`{"version":"2.0.0"}`)), ContextOptions{})
	if got != ErrorPrefix+"Seed validation failed: $.version: Schema version 2.0.0 requires migration. Expected 1.x.x; seed.json was left untouched; run `paige seed check`" {
		t.Errorf("error = %q", got)
	}
}

func TestRenderContextBoundedLargeSeed(t *testing.T) {
	s, err := Decode(fixture(t, "large-seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{LayoutFull, LayoutCompact} {
		t.Run(format, func(t *testing.T) {
			out := RenderContext(s, ContextOptions{Format: format})
			if n := utf8.RuneCountInString(out); n > MaxContextChars {
				t.Errorf("context is %d characters, want ≤ %d", n, MaxContextChars)
			}
			heads := []string{"Seed: v1.0.0", "Learnings: 1000 patterns, 500 insights, 100 self-knowledge", "Pending proposals (", "Last session: ", "Active projects: "}
			if format == LayoutCompact {
				heads[1] = "Recent learnings ("
			}
			for _, h := range heads {
				if !strings.Contains(out, h) {
					t.Errorf("missing section header %q", h)
				}
			}
			if !strings.Contains(out, "... and ") {
				t.Error("no '... and N more' in a shrunk context")
			}
		})
	}
}

func TestRenderContextBoundedHugeFields(t *testing.T) {
	s := validSeed(t)
	s.Identity.Catchphrase = strings.Repeat("ü", 30000)
	s.State.CheckpointRef = strings.Repeat("c", 30000)
	for i := range 300 {
		s.State.ActiveProjects = append(s.State.ActiveProjects, fmt.Sprintf("project-%d-%s", i, strings.Repeat("x", 50)))
	}
	out := RenderContext(s, ContextOptions{})
	if n := utf8.RuneCountInString(out); n > MaxContextChars {
		t.Fatalf("context is %d characters", n)
	}
	for _, h := range []string{"Identity: Ivy", "Catchphrase: ", "Pending proposals (1):", "Checkpoint: ", " more\nCheckpoint: "} {
		if !strings.Contains(out, h) {
			t.Errorf("missing %q in:\n%s", h, out)
		}
	}
	if got := hardCut(strings.Repeat("x", 50), 20); utf8.RuneCountInString(got) > 20 || !strings.HasSuffix(got, "(truncated)") {
		t.Errorf("hardCut = %q", got)
	}
}

func TestFormatCompactProposalLine(t *testing.T) {
	s := Defaults()
	s.State.Proposals = []Proposal{
		{ID: "abcdefgh", Type: TypeSelfKnowledge, Content: strings.Repeat("y", 45), Source: "s", ExtractedAt: "2026-01-01T00:00:00Z", Status: StatusPending, Confidence: ptr(0.876)},
		{ID: "xyz", Type: TypeInsight, Content: "short", Source: "s", ExtractedAt: "2026-01-01T00:00:00Z", Status: StatusPending},
	}
	out := FormatCompact(s)
	want := "Pending proposals (2):\n" +
		"  abcde  self_knowledge  " + strings.Repeat("y", 40) + " ...  0.88\n" +
		"  xyz    insight         short" + strings.Repeat(" ", 39) + "  N/A\n" + ReviewHint
	if !strings.Contains(out, want) {
		t.Errorf("compact output:\n%s\nwant it to contain:\n%s", out, want)
	}
	if strings.Contains(out, "Recent learnings") {
		t.Error("empty learnings section shown")
	}
}

func BenchmarkGenerateSessionContext(b *testing.B) {
	path := seedFile(b, fixture(b, "valid-seed.json"))
	LoadWithGit(path, nil)
	for b.Loop() {
		if _, err := GenerateSessionContext(path, ContextOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderLarge(b *testing.B) {
	s, err := Decode(fixture(b, "large-seed.json"))
	if err != nil {
		b.Fatal(err)
	}
	var out string
	for b.Loop() {
		out = RenderContext(s, ContextOptions{})
	}
	if !bytes.Contains([]byte(out), []byte("Seed:")) {
		b.Fatal("no output")
	}
}
