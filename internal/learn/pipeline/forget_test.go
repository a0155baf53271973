package pipeline

import (
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/extract"
)

// TestForgetNamesExactly: "@forget it" forgets nothing out of 13 entries;
// a request naming several entries forgets none and lists them; a request
// naming one forgets exactly that one.
func TestForgetNamesExactly(t *testing.T) {
	s := newStore(t)
	var in []learn.Entry
	for _, c := range []string{"Always run go vet before committing", "Never commit .env files", "Keep it simple",
		"The staging DB listens on port 5433", "The production DB listens on port 5432", "Split it into units",
		"Write commit messages in the imperative", "User prefers tabs", "Edit with care", "Tidy imports",
		"Never force-push to main", "Use it sparingly", "Quit early"} {
		in = append(in, learn.Entry{Type: learn.Rule, Content: c})
	}
	if _, err := s.Append(in...); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()

	res := run(t, writeTranscript(t, dir, "it.jsonl", "@forget it"), Options{Store: s})
	if act, _ := s.Active(); len(act) != 13 || res.Stats.EntriesForgotten != 0 {
		t.Fatalf("@forget it: %d forgotten, %d active, want 0 and 13", res.Stats.EntriesForgotten, len(act))
	}

	res = run(t, writeTranscript(t, dir, "two.jsonl", "@forget the DB port"), Options{Store: s})
	if act, _ := s.Active(); len(act) != 13 || res.Stats.EntriesForgotten != 0 {
		t.Fatalf("@forget the DB port: %d forgotten, %d active, want 0 and 13", res.Stats.EntriesForgotten, len(act))
	}
	if len(res.AmbiguousForgets) != 1 || len(res.AmbiguousForgets[0].Candidates) != 2 ||
		res.AmbiguousForgets[0].Request != "the DB port" {
		t.Fatalf("ambiguous forgets: %+v", res.AmbiguousForgets)
	}

	res = run(t, writeTranscript(t, dir, "one.jsonl", "@forget the staging DB port"), Options{Store: s})
	act, _ := s.Active()
	if len(act) != 12 || res.Stats.EntriesForgotten != 1 {
		t.Fatalf("@forget the staging DB port: %d forgotten, %d active, want 1 and 12", res.Stats.EntriesForgotten, len(act))
	}
	for _, e := range act {
		if e.Content == "The staging DB listens on port 5433" {
			t.Errorf("staging entry still active")
		}
	}
}

// TestForgottenNotRelearned: once forgotten, an entry extracted again —
// with entities or without — is dropped as a duplicate.
func TestForgottenNotRelearned(t *testing.T) {
	for _, ents := range [][]string{nil, {"staging"}, {"postgres", "5433"}} {
		s := newStore(t)
		stored, err := s.Append(learn.Entry{Type: learn.Fact, Content: "The staging DB listens on port 5433"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Forget(stored[0].ID); err != nil {
			t.Fatal(err)
		}
		x := &scripted{items: []extract.Item{{Type: "fact", Content: "The staging DB listens on port 5433", Confidence: 1, Entities: ents}}}
		res := run(t, writeTranscript(t, t.TempDir(), "again.jsonl", "The staging DB listens on port 5433, remember that please."), Options{Store: s, Extractor: x})
		if act, _ := s.Active(); len(act) != 0 || len(res.Entries) != 0 {
			t.Errorf("entities %v: forgotten entry came back: %+v", ents, act)
		}
	}
}
