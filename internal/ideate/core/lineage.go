package core

import "strings"

// Relation is how a premise came from a parent.
type Relation string

// Relations of a premise to its parents.
const (
	RelationEvolved  Relation = "evolved"  // mutate_premise: source_title
	RelationCombined Relation = "combined" // cross_pollinate: primary_title and secondary titles
)

// Parent is one premise another came from.
type Parent struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	RoundNumber int      `json:"round_number"`
	Relation    Relation `json:"relation"`
}

// Parents resolves the lineage titles of every premise in ps (one session's
// premises) to premises: a title names the latest premise before it (an
// earlier round, or earlier in its round) with that title, trimmed and
// ignoring case. A title that names no
// earlier premise (the agent misnamed it) has no parent. The result maps a
// premise's id to its parents, primary first; fresh premises are absent.
func Parents(ps []Premise) map[string][]Parent {
	out := map[string][]Parent{}
	for _, p := range ps {
		var parents []Parent
		add := func(title string, rel Relation) {
			if q, ok := latestBefore(ps, title, p); ok {
				for _, have := range parents {
					if have.ID == q.ID {
						return
					}
				}
				parents = append(parents, Parent{ID: q.ID, Title: q.Title, RoundNumber: q.RoundNumber, Relation: rel})
			}
		}
		if p.SourceTitle != "" {
			add(p.SourceTitle, RelationEvolved)
		}
		if p.PrimaryTitle != "" {
			add(p.PrimaryTitle, RelationCombined)
		}
		for _, t := range p.SecondaryTitles {
			add(t, RelationCombined)
		}
		if len(parents) > 0 {
			out[p.ID] = parents
		}
	}
	return out
}

// latestBefore is the latest premise before p titled title: of an earlier
// round, or earlier in p's round (a lower buffer index).
func latestBefore(ps []Premise, title string, p Premise) (Premise, bool) {
	key := strings.ToLower(strings.TrimSpace(title))
	var best Premise
	found := false
	for _, q := range ps {
		if !before(q, p) || strings.ToLower(strings.TrimSpace(q.Title)) != key {
			continue
		}
		if !found || before(best, q) {
			best, found = q, true
		}
	}
	return best, found
}

// before orders premises by round, then by their place in the round.
func before(q, p Premise) bool {
	return q.RoundNumber < p.RoundNumber || q.RoundNumber == p.RoundNumber && q.BufferIndex < p.BufferIndex
}
