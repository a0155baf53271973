package knowledge

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/learn"
)

var sampleEntry = learn.Entry{
	ID: "test-1", Type: learn.Preference, Content: "User prefers pnpm over npm", Confidence: 0.95,
	Entities: []string{"pnpm", "npm"}, Evidence: "User said: always use pnpm", Source: "session:abc123",
	ExtractedAt: "2026-02-11T10:00:00Z",
}

func openStore(tb testing.TB) *Store {
	tb.Helper()
	s, err := Open(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func entries(tb testing.TB, s *Store) []learn.Entry {
	tb.Helper()
	es, err := s.Entries()
	if err != nil {
		tb.Fatal(err)
	}
	return es
}

func mustAppend(tb testing.TB, s *Store, es ...learn.Entry) []learn.Entry {
	tb.Helper()
	out, err := s.Append(es...)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// The plan's task 1 tests.
func TestPlanTask1(t *testing.T) {
	t.Run("empty store reads as no entries", func(t *testing.T) {
		if got := entries(t, openStore(t)); len(got) != 0 {
			t.Errorf("got %v, want none", got)
		}
	})
	t.Run("append creates the file and writes the entry", func(t *testing.T) {
		s := openStore(t)
		mustAppend(t, s, sampleEntry)
		got := entries(t, s)
		if diff := cmp.Diff([]learn.Entry{sampleEntry}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("append writes several entries", func(t *testing.T) {
		s := openStore(t)
		e2 := sampleEntry
		e2.ID, e2.Type, e2.Content, e2.Entities = "test-2", learn.Fact, "Project uses PostgreSQL", []string{"PostgreSQL"}
		mustAppend(t, s, sampleEntry, e2)
		if got := len(entries(t, s)); got != 2 {
			t.Errorf("got %d entries, want 2", got)
		}
	})
	t.Run("isDuplicate detects similar content with overlapping entities", func(t *testing.T) {
		c := sampleEntry
		c.ID, c.Content = "test-new", "User prefers pnpm instead of npm"
		if !IsDuplicate(c, []learn.Entry{sampleEntry}) {
			t.Error("got false, want true")
		}
	})
	t.Run("isDuplicate allows different topics", func(t *testing.T) {
		c := sampleEntry
		c.ID, c.Content, c.Entities = "test-new", "PostgreSQL runs on port 5432", []string{"PostgreSQL"}
		if IsDuplicate(c, []learn.Entry{sampleEntry}) {
			t.Error("got true, want false")
		}
	})
	t.Run("renderMarkdown produces sections", func(t *testing.T) {
		es := []learn.Entry{sampleEntry,
			{ID: "t2", Type: learn.Rule, Content: "Never commit .env files", Entities: []string{".env"}, Confidence: 1},
			{ID: "t3", Type: learn.Fact, Content: "Uses TanStack Start", Entities: []string{"TanStack"}, Confidence: 0.9},
		}
		md := RenderMarkdown(es)
		for _, want := range []string{"## Preferences", "User prefers pnpm over npm", "## Rules", "Never commit .env files", "## Facts"} {
			if !strings.Contains(md, want) {
				t.Errorf("markdown lacks %q:\n%s", want, md)
			}
		}
	})
	t.Run("renderMarkdown excludes superseded entries", func(t *testing.T) {
		old := sampleEntry
		old.SupersededBy = "test-2"
		md := RenderMarkdown([]learn.Entry{old, {ID: "test-2", Type: learn.Preference, Content: "User strongly prefers pnpm", Confidence: 1}})
		if strings.Contains(md, "User prefers pnpm over npm") || !strings.Contains(md, "User strongly prefers pnpm") {
			t.Errorf("markdown:\n%s", md)
		}
	})
}

func TestTornLastLine(t *testing.T) {
	s := openStore(t)
	mustAppend(t, s, sampleEntry)
	// A crash mid-write: half a record, no newline.
	f, err := os.OpenFile(s.EntriesPath(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"id":"torn","type":"fact","content":"half writ`)
	f.Close()

	if got := entries(t, s); len(got) != 1 || got[0].ID != "test-1" {
		t.Errorf("with torn tail: got %v, want only test-1", got)
	}
	e2 := sampleEntry
	e2.ID, e2.Content = "test-2", "Project uses PostgreSQL"
	mustAppend(t, s, e2) // repairs, then appends
	raw, _ := os.ReadFile(s.EntriesPath())
	if strings.Contains(string(raw), "half writ") {
		t.Errorf("torn line not repaired:\n%s", raw)
	}
	if lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n"); len(lines) != 2 {
		t.Errorf("got %d lines, want 2:\n%s", len(lines), raw)
	}

	// Open repairs too.
	os.WriteFile(s.EntriesPath(), append(raw, []byte(`{"id":"x"`)...), 0o644)
	if _, err := Open(s.Dir()); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(s.EntriesPath()); string(after) != string(raw) {
		t.Errorf("Open did not truncate the torn line:\n%s", after)
	}
}

func TestForgetAndSupersede(t *testing.T) {
	s := openStore(t)
	a := mustAppend(t, s, learn.Entry{Type: learn.Fact, Content: "Staging DB on port 5433", Entities: []string{"staging"}})[0]
	b := mustAppend(t, s, learn.Entry{Type: learn.Fact, Content: "Staging DB on port 6543", Entities: []string{"staging"}})[0]
	if a.ID == "" || a.ExtractedAt == "" || a.ID == b.ID {
		t.Fatalf("ids not filled: %+v %+v", a, b)
	}
	if err := s.Supersede(a.ID, b.ID); err != nil {
		t.Fatal(err)
	}
	act, _ := s.Active()
	if len(act) != 1 || act[0].ID != b.ID {
		t.Errorf("active after supersede: %v", act)
	}
	if err := s.Supersede(a.ID, "nope-nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("supersede with unknown id: got %v, want ErrNotFound", err)
	}
	got, err := s.Forget(b.ID[:30]) // unique prefix
	if err != nil || !got.Forgotten || got.ID != b.ID {
		t.Fatalf("Forget: %+v, %v", got, err)
	}
	if act, _ := s.Active(); len(act) != 0 {
		t.Errorf("active after forget: %v", act)
	}
	if all := entries(t, s); len(all) != 2 {
		t.Errorf("history: got %d entries, want 2 (versions collapse)", len(all))
	}
	if _, err := s.Forget("does-not-exist"); !errors.Is(err, ErrNotFound) {
		t.Errorf("got %v, want ErrNotFound", err)
	}
	if _, err := s.Append(learn.Entry{ID: "abcd-1", Type: learn.Fact, Content: "one"}, learn.Entry{ID: "abcd-2", Type: learn.Fact, Content: "two"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Forget("abcd"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("got %v, want ErrAmbiguous", err)
	}
	md, err := s.WriteMarkdown()
	if err != nil || strings.Contains(md, "Staging") {
		t.Errorf("markdown shows inactive entries (%v):\n%s", err, md)
	}
}

func TestAppendValidatesAndRedacts(t *testing.T) {
	s := openStore(t)
	if _, err := s.Append(learn.Entry{Type: "opinion", Content: "x"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown type: got %v, want ErrInvalid", err)
	}
	if _, err := s.Append(learn.Entry{Type: learn.Fact, Content: " <private>only secret</private> "}); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty after redaction: got %v, want ErrInvalid", err)
	}
	got := mustAppend(t, s, learn.Entry{Type: learn.Fact, Content: "Deploy key is sk-ant-api03-abcdefghijklmnop", Evidence: "password=hunter22", Confidence: 7})[0]
	raw, _ := os.ReadFile(s.EntriesPath())
	if strings.Contains(string(raw), "abcdefghijklmnop") || strings.Contains(string(raw), "hunter22") {
		t.Errorf("secret stored:\n%s", raw)
	}
	if got.Confidence != 1 {
		t.Errorf("confidence: got %v, want clamped to 1", got.Confidence)
	}
}

func TestConcurrentAppend(t *testing.T) {
	s := openStore(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 10 {
				if _, err := s.Append(learn.Entry{Type: learn.Fact, Content: strings.Repeat("x", i*j+1)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if got := len(entries(t, s)); got != 80 {
		t.Errorf("got %d entries, want 80", got)
	}
}

func TestProcessed(t *testing.T) {
	s := openStore(t)
	path := t.TempDir() + "/t.jsonl"
	os.WriteFile(path, []byte("{}\n"), 0o644)
	key, fi, err := TranscriptKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.IsProcessed(key); ok {
		t.Error("new transcript reported processed")
	}
	if err := s.MarkProcessed(Processed{Key: key, Path: path, Size: fi.Size()}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.IsProcessed(key); !ok {
		t.Error("marked transcript not reported processed")
	}
	os.WriteFile(path, []byte("{}\n{}\n"), 0o644) // grew
	key2, _, _ := TranscriptKey(path)
	if ok, _ := s.IsProcessed(key2); ok {
		t.Error("changed transcript reported processed")
	}
}

func TestIndexMatchesIsDuplicate(t *testing.T) {
	existing := []learn.Entry{sampleEntry, {Type: learn.Rule, Content: "Never push to main", Entities: []string{"main"}}}
	x := NewIndex(existing)
	cands := []learn.Entry{
		{Type: learn.Preference, Content: "User prefers pnpm instead of npm", Entities: []string{"PNPM"}},
		{Type: learn.Preference, Content: "PostgreSQL runs on port 5432", Entities: []string{"PostgreSQL"}},
		{Type: learn.Rule, Content: "Never push to main!", Entities: []string{"main"}},
		{Type: learn.Fact, Content: "Never push to main", Entities: []string{"main"}},
	}
	for _, c := range cands {
		if got, want := x.IsDuplicate(c), IsDuplicate(c, existing); got != want {
			t.Errorf("%q: Index says %v, IsDuplicate says %v", c.Content, got, want)
		}
	}
}

// FuzzParse feeds arbitrary store contents to Parse: it must not panic,
// and every entry it returns has an id and a unique one.
func FuzzParse(f *testing.F) {
	f.Add(`{"id":"a","type":"fact","content":"x"}` + "\n" + `{"id":"a","forgotten":true}` + "\n")
	f.Add(`{"id":"b","type":"rule","content":"y","entities":["z"]}` + "\n" + `{"id":"c","ty`)
	f.Add("\n\n[1,2]\nnull\n{}\n")
	f.Fuzz(func(t *testing.T, in string) {
		es, bad, err := Parse(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, e := range es {
			if e.ID == "" || seen[e.ID] {
				t.Errorf("entry id %q empty or repeated", e.ID)
			}
			seen[e.ID] = true
		}
		if bad < 0 || len(es)+bad > strings.Count(in, "\n")+1 {
			t.Errorf("%d entries + %d bad from %d lines", len(es), bad, strings.Count(in, "\n")+1)
		}
	})
}

func TestSupersedes(t *testing.T) {
	old := sampleEntry // "User prefers pnpm over npm", 0.95
	tests := []struct {
		name string
		c    learn.Entry
		want bool
	}{
		{"restatement that adds", learn.Entry{Type: learn.Preference, Content: "User prefers pnpm over npm for every repo and tool", Confidence: 1, Entities: []string{"pnpm"}}, true},
		{"a restatement that drops a word is another scope", learn.Entry{Type: learn.Preference, Content: "User strongly prefers pnpm", Confidence: 1, Entities: []string{"pnpm"}}, false},
		{"duplicate is not a supersession", learn.Entry{Type: learn.Preference, Content: "User prefers pnpm instead of npm", Confidence: 1, Entities: []string{"pnpm"}}, false},
		{"other topic", learn.Entry{Type: learn.Preference, Content: "User prefers tabs", Confidence: 1, Entities: []string{"tabs"}}, false},
		{"lower confidence", learn.Entry{Type: learn.Preference, Content: "User strongly prefers pnpm", Confidence: 0.5, Entities: []string{"pnpm"}}, false},
		{"other type", learn.Entry{Type: learn.Fact, Content: "User strongly prefers pnpm", Confidence: 1, Entities: []string{"pnpm"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Supersedes(tt.c, old); got != tt.want {
				t.Errorf("got %v, want %v (Jaccard %.2f)", got, tt.want, Jaccard(tt.c.Content, old.Content))
			}
		})
	}
}

// TestDistinctScopesNeverSupersede: rules of one entity in distinct scopes
// stay side by side whichever comes first; a rule that extends another
// replaces it.
func TestDistinctScopesNeverSupersede(t *testing.T) {
	rule := func(c string, ents ...string) learn.Entry {
		return learn.Entry{Type: learn.Rule, Content: c, Confidence: 0.75, Entities: ents}
	}
	pairs := []struct {
		a, b learn.Entry
		want bool // b supersedes a
	}{
		{rule("Never use fmt.Println in the api service", "fmt.Println"), rule("Never use fmt.Println in the cli tool", "fmt.Println"), false},
		{rule("Never push to main without review", "main"), rule("Never force-push to main", "force-push", "main"), false},
		{rule("Never force-push to main", "force-push", "main"), rule("Never push to main without review", "main"), false},
		{rule("Never push to main", "main"), rule("Never push to main without a review", "main"), true},
	}
	for _, p := range pairs {
		if got := Supersedes(p.b, p.a); got != p.want {
			t.Errorf("%q supersedes %q: got %v, want %v", p.b.Content, p.a.Content, got, p.want)
		}
		if IsDuplicate(p.b, []learn.Entry{p.a}) {
			t.Errorf("%q taken for a duplicate of %q", p.b.Content, p.a.Content)
		}
	}
}

func TestConcurrentForgetAndSupersede(t *testing.T) {
	for range 20 {
		s := openStore(t)
		es := mustAppend(t, s, learn.Entry{Type: learn.Fact, Content: "a"}, learn.Entry{Type: learn.Fact, Content: "b"})
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); s.Forget(es[0].ID) }()
		go func() { defer wg.Done(); s.Supersede(es[0].ID, es[1].ID) }()
		wg.Wait()
		got := entries(t, s)[0]
		if !got.Forgotten || got.SupersededBy != es[1].ID {
			t.Fatalf("lost an update: %+v", got)
		}
	}
}

// TestEntriesOfOneRunHaveShortUniquePrefixes: the ids a run gives its
// entries differ in their first characters, so "learn forget <4 chars>"
// names one of them (time-ordered ids of one run shared twelve).
func TestEntriesOfOneRunHaveShortUniquePrefixes(t *testing.T) {
	s := openStore(t)
	var batch []learn.Entry
	for i := range 20 {
		batch = append(batch, learn.Entry{Type: learn.Fact, Content: fmt.Sprintf("fact number %d", i)})
	}
	stored, err := s.Append(batch...)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range stored {
		got, err := s.Forget(e.ID[:8])
		if err != nil || got.ID != e.ID {
			t.Errorf("forget by %q: %+v, %v", e.ID[:8], got, err)
		}
	}
}
