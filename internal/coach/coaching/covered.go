package coaching

import (
	"slices"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
)

// coveredGaps returns the ids of the earlier knowledge gaps that session
// sessionID covered, to be marked addressed after its gap extraction
// succeeded (issue 13: "a gap is marked addressed when a later session or
// a passed kata covers it"; the spec leaves "covers" open). A gap is
// covered when all of these hold:
//
//   - it is still open and was first recorded by another (earlier) session;
//   - this session's extraction, which was shown it among existing_gaps, did
//     not report its topic again (a recurrence counts the gap up instead);
//   - one of this session's completed phases worked on it: the phase's
//     title and description contain every word of the gap's topic, or every
//     word of one of its related concepts (words as [Words]: case, stop
//     words and punctuation ignored).
//
// A gap whose topic never came up in a completed phase stays open, however
// many sessions pass without it: not struggling with a topic one did not
// touch says nothing. reported are the gaps the extraction returned (as
// recorded); earlier are the gap rows read before it.
func coveredGaps(sessionID string, earlier []coach.KnowledgeGap, reported []coach.KnowledgeGap, phases []coach.Phase) []string {
	again := map[string]bool{}
	for _, g := range reported {
		again[topicKey(g.Topic)] = true
	}
	var done [][]string
	for _, p := range phases {
		if p.Status == coach.PhaseComplete {
			done = append(done, Words(p.Title+" "+p.Description))
		}
	}
	var out []string
	for _, g := range earlier {
		if g.Addressed || g.SessionID == sessionID || again[topicKey(g.Topic)] || slices.Contains(out, g.ID) {
			continue
		}
		if slices.ContainsFunc(done, func(phase []string) bool { return coversGap(phase, g) }) {
			out = append(out, g.ID)
		}
	}
	return out
}

// coversGap reports whether a phase with the given words worked on g: it
// names every word of g's topic, or of one of g's related concepts.
func coversGap(phase []string, g coach.KnowledgeGap) bool {
	for _, name := range append([]string{g.Topic}, g.RelatedConcepts...) {
		words := Words(name)
		if len(words) > 0 && overlap(words, phase) == len(words) {
			return true
		}
	}
	return false
}

// topicKey is how gap topics are compared (as store.RecordKnowledgeGap does).
func topicKey(topic string) string { return strings.ToLower(strings.TrimSpace(topic)) }
