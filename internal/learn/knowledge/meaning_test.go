package knowledge

import (
	"fmt"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

func rule(content string, entities ...string) learn.Entry {
	return learn.Entry{Type: learn.Rule, Content: content, Entities: entities, Confidence: 0.9}
}

// TestDedupByMeaning: pairs that share words but not meaning are kept;
// paraphrases of one rule are one entry.
func TestDedupByMeaning(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new learn.Entry
		dup      bool
	}{
		{"other tool, same words", rule("Run go vet before committing", "go vet", "committing"), rule("Run eslint before committing", "eslint", "committing"), false},
		{"other tool, model entities", rule("Always run go vet before committing", "go vet"), rule("Always run eslint before committing", "eslint"), false},
		{"other branch", rule("Never force-push to main", "force-push", "main"), rule("Never force-push to release branches", "force-push", "release branches"), false},
		{"opposite polarity", rule("Always run go vet before committing", "go vet"), rule("Never run go vet before committing", "go vet"), false},
		{"paraphrase", rule("Always run go vet before committing", "go vet"), rule("Run go vet before every commit", "go vet"), true},
		{"paraphrase, heuristic entities", rule("Always run go vet before committing", "go", "vet", "committing"), rule("Make sure go vet passes before you commit", "go", "vet", "passes", "commit"), true},
		{"paraphrase, extra entity on one side", rule("Never commit .env files", ".env"), rule("Do not commit the .env files to git", ".env", "git"), true},
		{"repeat", rule("Never push to main", "main"), rule("Never push to main!", "main"), true},
		{"refinement is not a duplicate", rule("Never push to main", "main"), rule("Never push to main without a review", "main", "review"), false},
	} {
		if got := IsDuplicate(tc.new, []learn.Entry{tc.old}); got != tc.dup {
			t.Errorf("%s: IsDuplicate(%q, %q) = %v, want %v", tc.name, tc.new.Content, tc.old.Content, got, tc.dup)
		}
	}
}

// TestPerToolRulesAllKept: 60 per-tool rules that differ only in the tool
// stay 60 entries (they collapsed to one).
func TestPerToolRulesAllKept(t *testing.T) {
	x := NewIndex(nil)
	kept := 0
	for i := range 60 {
		tool := fmt.Sprintf("tool%02d", i)
		e := rule("Always run "+tool+" before committing", tool, "committing")
		if !x.IsDuplicate(e) {
			x.Add(e)
			kept++
		}
	}
	if kept != 60 {
		t.Errorf("kept %d of 60 per-tool rules", kept)
	}
}

// TestSupersedeByMeaning: a rule about another thing never supersedes,
// a restatement of the same thing does.
func TestSupersedeByMeaning(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new learn.Entry
		want     bool
	}{
		{"other branch", rule("Never force-push to main", "force-push", "main"), rule("Never force-push to release branches", "force-push", "release branches"), false},
		{"heuristic entities, other branch", rule("Never force-push to main", "force-push", "main"), rule("Never force-push to release branches", "force-push", "release", "branches"), false},
		{"refinement", rule("Never push to main", "main"), rule("Never push to main without a review", "main", "review"), true},
	} {
		if got := Supersedes(tc.new, tc.old); got != tc.want {
			t.Errorf("%s: Supersedes(%q, %q) = %v, want %v", tc.name, tc.new.Content, tc.old.Content, got, tc.want)
		}
	}
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{"committing": "commit", "commits": "commit", "commit": "commit", "pushed": "push",
		"running": "run", "passes": "pass", "class": "class", "go": "go", "branches": "branch", "installing": "install"} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}
