package practice

import (
	"slices"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/practicereview"
)

// ResolveConstraints returns the kata's constraints named by titles
// (case-insensitive, surrounding space ignored), in the kata's order and
// each once (FR-155). Titles that name no constraint are ignored (EC-77).
func ResolveConstraints(kata []coach.KataConstraint, titles []string) []coach.KataConstraint {
	want := map[string]bool{}
	for _, t := range titles {
		want[key(t)] = true
	}
	out := []coach.KataConstraint{}
	for _, c := range kata {
		if want[key(c.Title)] && !slices.ContainsFunc(out, func(o coach.KataConstraint) bool { return key(o.Title) == key(c.Title) }) {
			out = append(out, c)
		}
	}
	return out
}

// SameConstraintAttempts returns the attempts made with exactly the active
// constraint set (compared by title, order and case ignored), oldest first,
// in the prompt's shape (D75, FR-156).
func SameConstraintAttempts(attempts []coach.KataAttempt, active []coach.KataConstraint) []practicereview.Attempt {
	want := titleSet(active)
	out := []practicereview.Attempt{}
	for _, a := range attempts {
		if !slices.Equal(titleSet(a.Constraints), want) {
			continue
		}
		pa := practicereview.Attempt{Code: a.Code, Level: a.Level, Passed: a.Passed}
		if a.Review != nil {
			pa.Review = *a.Review
		}
		out = append(out, pa)
	}
	return out
}

// BestLevel is the highest level of the reviewed attempts, 0 when none.
func BestLevel(attempts []coach.KataAttempt) int {
	best := 0
	for _, a := range attempts {
		if a.Level != nil && *a.Level > best {
			best = *a.Level
		}
	}
	return best
}

// UnlockedConstraints returns the constraints a new level unlocks: those
// with previous < minLevel ≤ level, in the kata's order (FR-158, scenario
// 11.7). A level at or below the previous best unlocks nothing.
func UnlockedConstraints(kata []coach.KataConstraint, previous, level int) []coach.KataConstraint {
	out := []coach.KataConstraint{}
	for _, c := range kata {
		if c.MinLevel > previous && c.MinLevel <= level {
			out = append(out, c)
		}
	}
	return out
}

// promptConstraints renders constraints for the prompt.
func promptConstraints(cs []coach.KataConstraint) []practicereview.Constraint {
	out := make([]practicereview.Constraint, 0, len(cs))
	for _, c := range cs {
		out = append(out, practicereview.Constraint{Title: c.Title, Description: c.Description})
	}
	return out
}

func key(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// titleSet is the sorted, de-duplicated set of constraint title keys.
func titleSet(cs []coach.KataConstraint) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, key(c.Title))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
