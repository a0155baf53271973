package practice

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
)

var levels = []coach.KataConstraint{
	{Title: "A", Description: "a", MinLevel: 1}, {Title: "B", Description: "b", MinLevel: 3},
	{Title: "C", Description: "c", MinLevel: 5}, {Title: "D", Description: "d", MinLevel: 7},
}

func TestUnlockedConstraints(t *testing.T) {
	for _, tc := range []struct {
		name            string
		previous, level int
		want            []string
	}{
		{"scenario 11.7: 2 → 5", 2, 5, []string{"B", "C"}},
		{"first attempt at level 1", 0, 1, []string{"A"}},
		{"first attempt at level 10", 0, 10, []string{"A", "B", "C", "D"}},
		{"no progress", 5, 5, []string{}},
		{"regression", 7, 3, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := []string{}
			for _, c := range UnlockedConstraints(levels, tc.previous, tc.level) {
				got = append(got, c.Title)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveConstraints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		titles []string
		want   []coach.KataConstraint
	}{
		{"case and space", []string{" c ", "a"}, []coach.KataConstraint{levels[0], levels[2]}},
		{"EC-77: unmatched ignored", []string{"Z", "b"}, []coach.KataConstraint{levels[1]}},
		{"EC-77: none match", []string{"Z"}, []coach.KataConstraint{}},
		{"duplicates once", []string{"A", "a"}, []coach.KataConstraint{levels[0]}},
		{"nil", nil, []coach.KataConstraint{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ResolveConstraints(levels, tc.titles)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSameConstraintAttempts(t *testing.T) {
	lv := func(n int) *int { return &n }
	yes, review := true, "ok"
	attempts := []coach.KataAttempt{
		{Code: "none"},
		{Code: "a", Level: lv(2), Review: &review, Passed: &yes, Constraints: []coach.KataConstraint{{Title: "A"}}},
		{Code: "ab", Constraints: []coach.KataConstraint{{Title: "b"}, {Title: "A"}}},
		{Code: "a-again", Constraints: []coach.KataConstraint{{Title: "a"}}},
	}
	for _, tc := range []struct {
		name   string
		active []coach.KataConstraint
		want   []practicereview.Attempt
	}{
		{"no constraints", nil, []practicereview.Attempt{{Code: "none"}}},
		{"{A}", []coach.KataConstraint{levels[0]}, []practicereview.Attempt{{Code: "a", Review: "ok", Level: lv(2), Passed: &yes}, {Code: "a-again"}}},
		{"{A, B} in any order", []coach.KataConstraint{levels[1], levels[0]}, []practicereview.Attempt{{Code: "ab"}}},
		{"{C}: none", []coach.KataConstraint{levels[2]}, []practicereview.Attempt{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, SameConstraintAttempts(attempts, tc.active)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestBestLevel(t *testing.T) {
	lv := func(n int) *int { return &n }
	if got := BestLevel([]coach.KataAttempt{{Level: lv(2)}, {}, {Level: lv(6)}, {Level: lv(4)}}); got != 6 {
		t.Errorf("got %d, want 6", got)
	}
	if got := BestLevel(nil); got != 0 {
		t.Errorf("no attempts: got %d, want 0", got)
	}
}

func FuzzResolveConstraints(f *testing.F) {
	f.Add("A", "b", "zz")
	f.Add("", " ", "\x00")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		got := ResolveConstraints(levels, []string{a, b, c})
		if len(got) > 3 {
			t.Fatalf("resolved %d constraints from 3 titles", len(got))
		}
		for _, k := range got {
			if key(k.Title) != key(a) && key(k.Title) != key(b) && key(k.Title) != key(c) {
				t.Fatalf("resolved %q not asked for", k.Title)
			}
		}
	})
}
