package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/trail/trailtest"
)

// storeSequence are the transcripts TestGoldenStore runs, in order, into
// one store: the reader's fixtures, the benchmark's shape, sessions with a
// tool trail (the same behaviour in two sessions: an update), forgets
// (exact, ambiguous, naming nothing) and a rule that supersedes a seeded
// one; then the benchmark's shape again, forced (everything a duplicate).
func storeSequence(t *testing.T, dir string) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	fixtures, err := filepath.Glob("../transcript/testdata/*.jsonl")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("fixtures: %v (%d)", err, len(fixtures))
	}
	sort.Strings(fixtures)
	for _, f := range fixtures {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	bench, err := os.ReadFile(writeBenchTranscript(t, 100<<10))
	if err != nil {
		t.Fatal(err)
	}
	benchPath := filepath.Join(dir, "bench-100k.jsonl")
	if err := os.WriteFile(benchPath, bench, 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, benchPath)
	for _, id := range []string{"t1", "t2"} {
		paths = append(paths, writeSession(t, dir, id, trailtest.New(id, "/work/app").User("run the tests").
			Bash("go test ./... 2>&1 | tail -20", "ok  \tapp\t0.01s", 0).Bash("go build ./...", "", 0).
			User("Never push to main without a review.").Edit("/work/app/main.go")))
	}
	paths = append(paths,
		writeTranscript(t, dir, "forget.jsonl", "@forget the staging DB port", "@forget the DB port", "@forget it",
			"I prefer tabs over spaces in Makefiles", "No, that's wrong — use the root tsconfig"),
		benchPath)
	return paths
}

// TestGoldenStore checks that whole runs write exactly what they wrote
// before the performance work (testdata/golden/store.txt, written by the
// code of the branch point with -update-golden): each run's result, then
// entries.jsonl, knowledge.md and processed.jsonl. Entry ids (random) are
// replaced by their order of appearance, the temporary directory by $DIR.
func TestGoldenStore(t *testing.T) {
	dir := t.TempDir()
	s, err := knowledge.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	seed := []learn.Entry{
		{ID: "seed-staging", Type: learn.Fact, Content: "The staging DB listens on port 5433", Entities: []string{"staging"}, ExtractedAt: "2026-01-01T00:00:00Z"},
		{ID: "seed-prod", Type: learn.Fact, Content: "The production DB listens on port 5432", ExtractedAt: "2026-01-01T00:00:00Z"},
		{ID: "seed-main", Type: learn.Rule, Content: "Never push to main", Confidence: 0.75, Entities: []string{"main"}, ExtractedAt: "2026-01-01T00:00:00Z"},
	}
	if _, err := s.Append(seed...); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	mtime := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	paths := storeSequence(t, filepath.Join(dir, "in"))
	for i, p := range paths {
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), p, Options{Store: s, Now: fixedNow, Force: i == len(paths)-1,
			Project: func(cwd string) string { return cwd }})
		if err != nil {
			t.Fatalf("run %s: %v", p, err)
		}
		b, err := json.MarshalIndent(res, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "== run %d %s\n%s\n", i, filepath.Base(p), b)
	}
	for _, name := range []string{knowledge.EntriesFile, knowledge.MarkdownFile, knowledge.ProcessedFile} {
		b, err := os.ReadFile(filepath.Join(s.Dir(), name))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "== %s\n%s", name, b)
	}
	got := normalizeStore(t, out.String(), s, dir)
	file := filepath.Join("testdata", "golden", "store.txt")
	if *updateGolden {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from the golden file (%d vs %d bytes); first difference near byte %d",
			len(got), len(want), firstDiff([]byte(got), want))
	}
}

var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// normalizeStore replaces the entry ids of text by "id-N" in their order
// of appearance in entries.jsonl, and dir by $DIR.
func normalizeStore(t *testing.T, text string, s *knowledge.Store, dir string) string {
	t.Helper()
	b, err := os.ReadFile(s.EntriesPath())
	if err != nil {
		t.Fatal(err)
	}
	alias := map[string]string{}
	for _, id := range uuidPattern.FindAllString(string(b), -1) {
		if _, ok := alias[id]; !ok {
			alias[id] = fmt.Sprintf("id-%03d", len(alias))
		}
	}
	text = uuidPattern.ReplaceAllStringFunc(text, func(id string) string {
		if a, ok := alias[id]; ok {
			return a
		}
		return "id-unstored"
	})
	return strings.ReplaceAll(text, dir, "$DIR")
}
