package learnseed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/seed"
)

func entry(id string, typ learn.KnowledgeType, content string, ents ...string) learn.Entry {
	return learn.Entry{ID: id, Type: typ, Content: content, Confidence: 0.8, Entities: ents,
		Source: "session:file", ExtractedAt: "2026-01-01T00:00:00Z"}
}

func TestProposalFor(t *testing.T) {
	conf := 0.8
	tests := []struct {
		name string
		in   learn.Entry
		want seed.Proposal
		ok   bool
	}{
		{"preference → pattern", entry("1", learn.Preference, "User prefers pnpm over npm", "pnpm"),
			seed.Proposal{Type: seed.TypePattern, Content: "User prefers pnpm over npm"}, true},
		{"rule → pattern", entry("2", learn.Rule, "Never push to main", "main"), seed.Proposal{Type: seed.TypePattern, Content: "Never push to main"}, true},
		{"procedure → pattern", entry("3", learn.Procedure, "1. build 2. test", "build"), seed.Proposal{Type: seed.TypePattern, Content: "1. build 2. test"}, true},
		{"decision → pattern", entry("4", learn.Decision, "Decided to go with SQLite", "SQLite"), seed.Proposal{Type: seed.TypePattern, Content: "Decided to go with SQLite"}, true},
		{"fact → insight", entry("5", learn.Fact, "The API runs on port 8080", "API"), seed.Proposal{Type: seed.TypeInsight, Content: "The API runs on port 8080"}, true},
		{"correction → corrected statement", entry("6", learn.Correction, "Correction: use the root tsconfig", "tsconfig"),
			seed.Proposal{Type: seed.TypeInsight, Content: "Use the root tsconfig"}, true},
		{"correction with lead-ins", entry("7", learn.Correction, "Actually, no, the tests live in spec/"),
			seed.Proposal{Type: seed.TypeInsight, Content: "The tests live in spec/"}, true},
		{"about the assistant → self_knowledge", entry("8", learn.Correction, `User rejected the assistant's answer: "use var"`),
			seed.Proposal{Type: seed.TypeSelfKnowledge, Content: `User rejected the assistant's answer: "use var"`}, true},
		{"Claude as entity → self_knowledge", entry("9", learn.Rule, "Ask before running migrations", "Claude"),
			seed.Proposal{Type: seed.TypeSelfKnowledge, Content: "Ask before running migrations"}, true},
		{"forgotten", func() learn.Entry { e := entry("10", learn.Fact, "x y z"); e.Forgotten = true; return e }(), seed.Proposal{}, false},
		{"empty", entry("11", learn.Fact, "  "), seed.Proposal{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ProposalFor(tt.in, "sess-9", MethodFor(t))
			if ok != tt.ok {
				t.Fatalf("ok: got %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			tt.want.Source, tt.want.Method, tt.want.Confidence, tt.want.ExtractedAt = "session:sess-9", seed.MethodRegex, &conf, "2026-01-01T00:00:00Z"
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if p, _ := ProposalFor(entry("x", learn.Fact, "Uses Go 1.26", "Go"), "", seed.MethodACR); p.Source != "session:file" || p.Method != seed.MethodACR {
		t.Errorf("without a session id: source %q, method %q", p.Source, p.Method)
	}
	inProject := entry("y", learn.Procedure, "Run go test ./...", "Go")
	inProject.Project = "/src/paige/.git"
	if p, _ := ProposalFor(inProject, "s", seed.MethodACR); p.Project != inProject.Project {
		t.Errorf("proposal project %q, want the entry's %q", p.Project, inProject.Project)
	}
}

// MethodFor is the heuristic extractor's method; a helper so the table stays short.
func MethodFor(tb testing.TB) string {
	tb.Helper()
	return Method("heuristic")
}

func TestMethod(t *testing.T) {
	for in, want := range map[string]string{"": seed.MethodRegex, "heuristic": seed.MethodRegex, "claude:claude-haiku-4-5": seed.MethodACR, "ollama:llama3": seed.MethodACR} {
		if got := Method(in); got != want {
			t.Errorf("Method(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCandidatesDuplicates(t *testing.T) {
	s := seed.Defaults()
	s.Learned.Patterns = []seed.Learning{{ID: "l1", Content: "User prefers pnpm over npm for installs"}}
	s.State.Proposals = []seed.Proposal{
		{ID: "p1", Type: seed.TypeInsight, Content: "The database is PostgreSQL 16", Status: seed.StatusPending},
		{ID: "p2", Type: seed.TypePattern, Content: "Decided to go with SQLite", Status: seed.StatusAccepted},
	}
	rejected := []Record{{ProposalID: "p3", Type: seed.TypePattern, Content: "Always write commit messages in French", Status: StatusRejected}}
	entries := []learn.Entry{
		entry("a", learn.Preference, "User prefers pnpm over npm for installs!", "pnpm"),    // normalised equal to a learning
		entry("b", learn.Preference, "User prefers pnpm over npm for all installs", "pnpm"), // Jaccard > 0.6, shared entity
		entry("c", learn.Fact, "The database is PostgreSQL 16 in production", "PostgreSQL"), // pending proposal
		entry("d", learn.Rule, "Always write commit messages in French please", "French"),   // rejected in the ledger
		entry("e", learn.Fact, "The database is PostgreSQL 16", "PostgreSQL"),               // same as c
		entry("f", learn.Rule, "Never push to main", "main"),                                // new
		entry("g", learn.Rule, "Never push directly to main", "main"),                       // duplicate of f in the batch
		entry("h", learn.Decision, "Decided to go with SQLite", "SQLite"),                   // accepted proposal but not a learning here: new
		entry("i", learn.Fact, "User prefers pnpm over npm for installs", "pnpm"),           // same words, other type: normalised equal → dropped
	}
	got := Candidates(entries, NewKnown(s, rejected), "s", seed.MethodRegex)
	var ids []string
	for _, c := range got {
		ids = append(ids, c.EntryID)
	}
	if diff := cmp.Diff([]string{"f", "h"}, ids); diff != "" {
		t.Errorf("kept entries (-want +got):\n%s", diff)
	}
}

func TestLedgerTornLine(t *testing.T) {
	dir := t.TempDir()
	l := OpenLedger(dir)
	if err := l.Append(Record{ProposalID: "a", Status: StatusProposed}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(l.Path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"proposalId":"b","sta`)
	f.Close()
	recs, err := l.Records()
	if err != nil || len(recs) != 1 || recs[0].ProposalID != "a" {
		t.Errorf("Records() = %+v, %v; want only a", recs, err)
	}
}

func runOpts(tb testing.TB) Options {
	tb.Helper()
	dir := tb.TempDir()
	return Options{
		SeedPath: filepath.Join(dir, "seed", "seed.json"), Seed: &seed.Options{NoGit: true},
		StoreDir: filepath.Join(dir, "knowledge"), SessionID: "sess-1", Method: seed.MethodRegex,
		Now: func() time.Time { return time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC) },
	}
}

func TestRunRemembersDecisions(t *testing.T) {
	opts := runOpts(t)
	entries := []learn.Entry{
		entry("e1", learn.Preference, "User prefers tabs over spaces", "tabs"),
		entry("e2", learn.Rule, "Never push to main", "main"),
	}
	res, err := Run(entries, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Proposed) != 2 || res.Skipped != 0 {
		t.Fatalf("first run: %+v", res)
	}
	if res, _ = Run(entries, opts); len(res.Proposed) != 0 || res.Skipped != 2 {
		t.Errorf("second run proposed again: %+v", res)
	}
	// The user rejects one, accepts the other, and cleans the rejected one away.
	var tabs, main string
	proposed, err := seed.Peek(opts.SeedPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proposed.Seed.State.Proposals {
		if p.Content == "Never push to main" {
			main = p.ID
		} else {
			tabs = p.ID
		}
	}
	if _, _, err := seed.RejectProposal(opts.SeedPath, tabs, opts.Seed); err != nil {
		t.Fatal(err)
	}
	if _, _, err := seed.AcceptProposal(opts.SeedPath, main, opts.Seed); err != nil {
		t.Fatal(err)
	}
	cleanRejected(t, opts)
	res, err = Run([]learn.Entry{entry("e3", learn.Preference, "User prefers tabs over spaces always", "tabs")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Proposed) != 0 || res.Synced != 2 {
		t.Errorf("after reject+clean: %+v, want nothing proposed and 2 decisions synced", res)
	}
	latest := Latest(mustRecords(t, opts))
	if latest[tabs].Status != StatusRejected || latest[main].Status != StatusAccepted {
		t.Errorf("ledger: tabs %q, main %q", latest[tabs].Status, latest[main].Status)
	}
	if latest[tabs].EntryID != "e1" {
		t.Errorf("ledger lost the entry id: %+v", latest[tabs])
	}
}

func cleanRejected(tb testing.TB, opts Options) {
	tb.Helper()
	if _, _, err := seed.Update(opts.SeedPath, opts.Seed, seed.CategoryUpdate, func(s *seed.Seed) (string, error) {
		if seed.CleanRejected(s) == 0 {
			tb.Fatal("nothing rejected to clean")
		}
		return "cleaned", nil
	}); err != nil {
		tb.Fatal(err)
	}
}

func mustRecords(tb testing.TB, opts Options) []Record {
	tb.Helper()
	recs, err := OpenLedger(opts.StoreDir).Records()
	if err != nil {
		tb.Fatal(err)
	}
	return recs
}

// TestCandidatesRankedAndEstablished: rules and procedures are proposed
// before preferences and facts, and evidence only (a command run once, a
// file-edit count) is never proposed.
func TestCandidatesRankedAndEstablished(t *testing.T) {
	entries := []learn.Entry{
		{ID: "fact", Type: learn.Fact, Content: "The API runs on fly.io", Confidence: 0.9},
		{ID: "pref", Type: learn.Preference, Content: "User prefers small commits", Confidence: 0.8},
		{ID: "once", Type: learn.Procedure, Content: "build: mix compile --force", Confidence: 0.5, Observed: &learn.Observed{Key: "procedure:build::mix compile --force", SessionCount: 1, Runs: 1}},
		{ID: "edits", Type: learn.Fact, Content: "often edited: lib/a.ex", Confidence: 0.5, Observed: &learn.Observed{Key: "fact:often edited: lib/a.ex", SessionCount: 1, Runs: 4}},
		{ID: "proc", Type: learn.Procedure, Content: "tests: mix test", Confidence: 0.65, Observed: &learn.Observed{Key: "procedure:test::mix test", SessionCount: 2, Runs: 2}},
		{ID: "rule", Type: learn.Rule, Content: "Never force-push to main", Confidence: 0.7},
	}
	var got []string
	for _, c := range Candidates(entries, NewKnown(&seed.Seed{}, nil), "s", seed.MethodRegex) {
		got = append(got, c.EntryID)
	}
	if want := "rule proc pref fact"; strings.Join(got, " ") != want {
		t.Errorf("candidates: got %q, want %q", strings.Join(got, " "), want)
	}
}
