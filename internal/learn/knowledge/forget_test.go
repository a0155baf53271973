package knowledge

import (
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// thirteen is a store's worth of entries, as in the issue ("@forget it"
// wiped 5 of 13 by matching "it" inside words).
var thirteen = []learn.Entry{
	{ID: "1", Type: learn.Rule, Content: "Always run go vet before committing", Entities: []string{"go vet"}},
	{ID: "2", Type: learn.Rule, Content: "Never commit .env files", Entities: []string{".env"}},
	{ID: "3", Type: learn.Preference, Content: "User prefers pnpm over npm", Entities: []string{"pnpm", "npm"}},
	{ID: "4", Type: learn.Fact, Content: "The staging DB listens on port 5433", Entities: []string{"staging"}},
	{ID: "5", Type: learn.Fact, Content: "The production DB listens on port 5432", Entities: []string{"production"}},
	{ID: "6", Type: learn.Decision, Content: "We use Clerk for authentication", Entities: []string{"Clerk"}},
	{ID: "7", Type: learn.Rule, Content: "Write commit messages in the imperative", Entities: []string{}},
	{ID: "8", Type: learn.Preference, Content: "User prefers tabs in Makefiles", Entities: []string{"Makefile"}},
	{ID: "9", Type: learn.Rule, Content: "Split big functions into smaller units", Entities: []string{}},
	{ID: "10", Type: learn.Fact, Content: "CI runs on GitHub Actions", Entities: []string{"GitHub Actions"}},
	{ID: "11", Type: learn.Rule, Content: "Never force-push to main", Entities: []string{"main"}},
	{ID: "12", Type: learn.Procedure, Content: "To release: 1. tag 2. push the tag", Entities: []string{"git"}},
	{ID: "13", Type: learn.Correction, Content: "The config lives in cmd/paige/config.go", Entities: []string{"cmd/paige/config.go"}},
}

func TestNamed(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"it", nil},
		{"that one", nil},
		{"the thing about it", nil},
		{"", nil},
		{"the staging DB port", []string{"4"}},
		{"DB port", []string{"4", "5"}},
		{"pnpm", []string{"3"}},
		{"commit", []string{"2", "7"}}, // whole words: not "committing"
		{"force-push", []string{"11"}},
		{"cmd/paige/config.go", []string{"13"}},
		{"Clerk", []string{"6"}},
		{"github actions", []string{"10"}},
		{"kubernetes", nil},
		{"staging kubernetes", nil}, // every named word must be in the entry
	} {
		var got []string
		for _, e := range Named(thirteen, tc.query) {
			got = append(got, e.ID)
		}
		if len(got) != len(tc.want) {
			t.Errorf("Named(%q) = %v, want %v", tc.query, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Named(%q) = %v, want %v", tc.query, got, tc.want)
			}
		}
	}
}

// TestForgottenNeverComesBack: a forgotten entry blocks its re-learning
// whether it or the candidate has entities or not; an active entry needs a
// shared entity, or, when neither names one, the same words. Entities are
// the real ones the content names:
// given words that name nothing ("releases", "monday") or that the content
// does not mention do not count.
func TestForgottenNeverComesBack(t *testing.T) {
	const plain = "Releases happen on the first monday of each month" // names no entity
	const named = "The staging DB listens on port 5433"               // names staging and DB
	for _, tc := range []struct {
		name              string
		text              string
		stored, candidate []string
		forgotten, dup    bool
	}{
		{"forgotten, neither has entities", plain, nil, nil, true, true},
		{"forgotten without, candidate with words", plain, nil, []string{"releases"}, true, true},
		{"forgotten with words, candidate without", plain, []string{"monday"}, nil, true, true},
		{"forgotten, unmentioned entities", plain, []string{"staging"}, []string{"postgres"}, true, true},
		{"active, no entity, same words", plain, nil, nil, false, true},
		{"active, unmentioned entities, same words", plain, []string{"staging"}, []string{"postgres"}, false, true},
		{"active, entities named by the content", named, nil, []string{"postgres"}, false, true},
		{"forgotten, entities named by the content", named, []string{"DB"}, nil, true, true},
	} {
		stored := learn.Entry{ID: "x", Type: learn.Fact, Content: tc.text, Entities: tc.stored, Forgotten: tc.forgotten}
		cand := learn.Entry{Type: learn.Fact, Content: tc.text + ".", Entities: tc.candidate}
		if got := IsDuplicate(cand, []learn.Entry{stored}); got != tc.dup {
			t.Errorf("%s: IsDuplicate = %v, want %v", tc.name, got, tc.dup)
		}
		if got := NewIndex([]learn.Entry{stored}).IsDuplicate(cand); got != tc.dup {
			t.Errorf("%s: Index.IsDuplicate = %v, want %v", tc.name, got, tc.dup)
		}
	}
}
