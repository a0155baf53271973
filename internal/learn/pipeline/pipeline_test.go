package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/knowledge/knowledgetest"
)

const fixture = "../transcript/testdata/sample-session.jsonl"

// scripted is an Extractor returning fixed items and recording its input.
type scripted struct {
	mu     sync.Mutex
	items  []extract.Item
	err    error
	chunks [][]learn.Turn
}

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Extract(_ context.Context, turns []learn.Turn, source string) ([]learn.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chunks = append(s.chunks, turns)
	if s.err != nil && strings.Contains(source, "bad") {
		return nil, s.err
	}
	return extract.Entries(s.items, source, fixedNow()), nil
}

var pnpmItem = extract.Item{Type: "preference", Content: "User prefers pnpm", Confidence: 0.95, Entities: []string{"pnpm"}, Evidence: "User said: I prefer pnpm"}

func newStore(tb testing.TB) *knowledge.Store {
	tb.Helper()
	return knowledgetest.Open(tb)
}

func run(tb testing.TB, path string, opts Options) Result {
	tb.Helper()
	res, err := Run(context.Background(), path, opts)
	if err != nil {
		tb.Fatalf("Run: %v", err)
	}
	return res
}

// The plan's task 5 tests (the extractor scripted as in the plan).
func TestPlanTask5(t *testing.T) {
	t.Run("full pipeline returns stats", func(t *testing.T) {
		res := run(t, fixture, Options{Store: newStore(t), Extractor: &scripted{items: []extract.Item{pnpmItem}}})
		st := res.Stats
		if st.TurnsProcessed == 0 || st.SignalTurns == 0 || st.NoiseTurns == 0 || st.EntriesExtracted == 0 {
			t.Errorf("stats: %+v", st)
		}
	})
	t.Run("writes entries to the store", func(t *testing.T) {
		s := newStore(t)
		run(t, fixture, Options{Store: s, Extractor: &scripted{items: []extract.Item{pnpmItem}}})
		if es, _ := s.Entries(); len(es) == 0 {
			t.Error("store is empty")
		}
	})
	t.Run("deduplicates on second run", func(t *testing.T) {
		s := newStore(t)
		x := &scripted{items: []extract.Item{pnpmItem}}
		run(t, fixture, Options{Store: s, Extractor: x})
		res := run(t, fixture, Options{Store: s, Extractor: x, Force: true}) // Force: the plan predates skipping
		if res.Stats.DuplicatesSkipped == 0 || len(res.Entries) != 0 {
			t.Errorf("second run: %+v", res)
		}
	})
	t.Run("renders knowledge.md", func(t *testing.T) {
		s := newStore(t)
		run(t, fixture, Options{Store: s, Extractor: &scripted{items: []extract.Item{pnpmItem}}})
		md, err := os.ReadFile(s.MarkdownPath())
		if err != nil || !strings.Contains(string(md), "User prefers pnpm") {
			t.Errorf("knowledge.md: %q, %v", md, err)
		}
	})
}

func TestHeuristicRunOnSample(t *testing.T) {
	s := newStore(t)
	res := run(t, fixture, Options{Store: s})
	want := learn.Stats{TurnsProcessed: 8, SignalTurns: 3, NoiseTurns: 5, EntriesExtracted: 2}
	if diff := cmp.Diff(want, res.Stats); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	var got []string
	for _, e := range res.Entries {
		got = append(got, string(e.Type)+": "+e.Content)
		if e.Source != "session:sample-session" {
			t.Errorf("source: %q", e.Source)
		}
	}
	if diff := cmp.Diff([]string{"preference: User prefers using pnpm for package management", "correction: Correction: use the other tsconfig"}, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

func TestSkipAlreadyExtracted(t *testing.T) {
	s := newStore(t)
	x := &scripted{items: []extract.Item{pnpmItem}}
	run(t, fixture, Options{Store: s, Extractor: x})
	res := run(t, fixture, Options{Store: s, Extractor: x})
	if !res.Stats.AlreadyExtracted || res.Stats.TurnsProcessed != 0 || len(x.chunks) != 1 {
		t.Errorf("second run not skipped: %+v, %d extractor calls", res.Stats, len(x.chunks))
	}
	res = run(t, fixture, Options{Store: s, Extractor: x, Force: true})
	if res.Stats.AlreadyExtracted || len(x.chunks) != 2 {
		t.Errorf("forced run skipped: %+v", res.Stats)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	s := newStore(t)
	res := run(t, fixture, Options{Store: s, DryRun: true})
	if len(res.Entries) != 2 {
		t.Errorf("dry run: got %d entries, want 2", len(res.Entries))
	}
	files, _ := os.ReadDir(s.Dir())
	if len(files) != 0 {
		t.Errorf("dry run wrote %v", files)
	}
}

// writeTranscript writes user/assistant pairs as a transcript file.
func writeTranscript(tb testing.TB, dir, name string, users ...string) string {
	tb.Helper()
	var b strings.Builder
	for i, u := range users {
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":%q}}`+"\n", u)
		fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":"answer %d"}]}}`+"\n", i, i)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestChunksWithNeighbours(t *testing.T) {
	var users []string
	for i := range 45 {
		users = append(users, fmt.Sprintf("I prefer option %d for this", i))
	}
	path := writeTranscript(t, t.TempDir(), "many.jsonl", users...)
	x := &scripted{items: []extract.Item{pnpmItem}}
	res := run(t, path, Options{Store: newStore(t), Extractor: x})
	if len(x.chunks) != 3 {
		t.Fatalf("got %d chunks, want 3 (20+20+5 signal turns)", len(x.chunks))
	}
	first := x.chunks[0]
	if len(first) != 40 || first[0].Content != "I prefer option 0 for this" || first[1].Content != "answer 0" {
		t.Errorf("first chunk: %d turns, starts %+v", len(first), first[:2])
	}
	if last := x.chunks[2]; len(last) != 11 { // the answer before its first signal turn, then 5 pairs
		t.Errorf("last chunk: %d turns, want 11", len(last))
	}
	// The same item from three chunks is stored once.
	if len(res.Entries) != 1 || res.Stats.DuplicatesSkipped != 2 || res.Stats.EntriesExtracted != 3 {
		t.Errorf("within-run dedup: %d entries, %+v", len(res.Entries), res.Stats)
	}
}

func TestWithContext(t *testing.T) {
	u := func(s string) learn.Turn { return learn.Turn{Role: learn.User, Content: s} }
	a := func(s string) learn.Turn { return learn.Turn{Role: learn.Assistant, Content: s} }
	turns := []learn.Turn{a("a0"), u("u1"), a("a2"), u("u3"), u("u4"), a("a5")}
	got := WithContext(turns, []int{1, 3, 4})
	want := []learn.Turn{a("a0"), u("u1"), a("a2"), u("u3"), u("u4"), a("a5")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestForgetCommand(t *testing.T) {
	s := newStore(t)
	s.Append(learn.Entry{Type: learn.Fact, Content: "The staging DB listens on port 5433", Entities: []string{"staging"}},
		learn.Entry{Type: learn.Rule, Content: "Never push to main", Entities: []string{"main"}})
	path := writeTranscript(t, t.TempDir(), "forget.jsonl", "@forget the staging DB port")
	res := run(t, path, Options{Store: s})
	if res.Stats.EntriesForgotten != 1 {
		t.Errorf("forgotten: got %d, want 1", res.Stats.EntriesForgotten)
	}
	act, _ := s.Active()
	if len(act) != 1 || act[0].Content != "Never push to main" {
		t.Errorf("active: %+v", act)
	}
}

func TestPrivacyBeforeExtraction(t *testing.T) {
	path := writeTranscript(t, t.TempDir(), "p.jsonl", "I prefer deploying with key sk-ant-api03-SECRETSECRET <private>my home address</private> via fly")
	x := &scripted{}
	s := newStore(t)
	run(t, path, Options{Store: s, Extractor: x})
	all := fmt.Sprint(x.chunks)
	if strings.Contains(all, "SECRETSECRET") || strings.Contains(all, "home address") {
		t.Errorf("extractor saw private text: %s", all)
	}
	res := run(t, path, Options{Store: s, Force: true})
	if len(res.Entries) != 1 || strings.Contains(res.Entries[0].Content+res.Entries[0].Evidence, "SECRET") {
		t.Errorf("stored: %+v", res.Entries)
	}
}

func TestRunManyAndExpand(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "proj")
	os.MkdirAll(sub, 0o755)
	a := writeTranscript(t, dir, "a.jsonl", "I prefer tabs")
	b := writeTranscript(t, sub, "b.jsonl", "Never push to main")
	bad := writeTranscript(t, sub, "bad.jsonl", "I prefer spaces")
	os.WriteFile(filepath.Join(sub, "notes.txt"), []byte("x"), 0o644)

	paths, err := Expand([]string{dir, a, filepath.Join(sub, "*.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{a, b, bad}, paths); diff != "" {
		t.Errorf("Expand (-want +got):\n%s", diff)
	}
	if _, err := Expand([]string{filepath.Join(dir, "nope-*.jsonl")}); err == nil {
		t.Error("empty glob: got nil error")
	}
	if _, err := Expand([]string{filepath.Join(dir, "missing.jsonl")}); err == nil {
		t.Error("missing file: got nil error")
	}

	x := &scripted{items: []extract.Item{pnpmItem}, err: errors.New("model down")}
	calls := 0
	sum, err := RunMany(context.Background(), paths, Options{Store: newStore(t), Extractor: x}, func(Result, error) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files != 3 || calls != 3 || len(sum.Failed) != 1 || sum.Failed[0].Path != bad || !strings.Contains(sum.Failed[0].Error, "model down") {
		t.Errorf("summary: %+v", sum)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, fixture, Options{Store: newStore(t)}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestNewEntrySupersedesOld(t *testing.T) {
	s := newStore(t)
	old, _ := s.Append(learn.Entry{Type: learn.Rule, Content: "Never push to main", Confidence: 0.75, Entities: []string{"main"}})
	path := writeTranscript(t, t.TempDir(), "s.jsonl", "Never push to main without a review.")
	res := run(t, path, Options{Store: s})
	if res.Stats.EntriesSuperseded != 1 || len(res.Entries) != 1 {
		t.Fatalf("stats %+v, entries %+v", res.Stats, res.Entries)
	}
	act, _ := s.Active()
	if len(act) != 1 || act[0].Content != "Never push to main without a review" {
		t.Errorf("active: %+v", act)
	}
	all, _ := s.Entries()
	if all[0].ID != old[0].ID || all[0].SupersededBy != res.Entries[0].ID {
		t.Errorf("old entry: %+v", all[0])
	}
	md, _ := os.ReadFile(s.MarkdownPath())
	if strings.Contains(string(md), "- Never push to main\n") {
		t.Errorf("knowledge.md shows the superseded rule:\n%s", md)
	}
}
