package coaching

import (
	"slices"
	"strings"
	"unicode"

	"github.com/paige-dev/paige/internal/coach"
)

// StageFor picks the Dreyfus stage that best fits topic from the global
// assessments: the assessment whose skill area shares the most words with
// topic (ties: higher confidence, then the more recent one). When no skill
// area shares a word, the lowest assessed stage is used, so an unknown area
// is explained and reviewed conservatively. With no assessments at all it
// is coach.DefaultDreyfusStage (novice, scenario 11.3, EC-80).
func StageFor(assessments []coach.DreyfusAssessment, topic string) coach.DreyfusStage {
	if len(assessments) == 0 {
		return coach.DefaultDreyfusStage
	}
	want := Words(topic)
	best, bestScore := -1, 0
	for i, a := range assessments {
		if !a.Stage.Valid() {
			continue
		}
		score := overlap(want, Words(a.SkillArea))
		if score == 0 {
			continue
		}
		if best < 0 || score > bestScore || score == bestScore && better(a, assessments[best]) {
			best, bestScore = i, score
		}
	}
	if best >= 0 {
		return assessments[best].Stage
	}
	lowest := coach.DreyfusStage("")
	for _, a := range assessments {
		if a.Stage.Valid() && (lowest == "" || stageRank(a.Stage) < stageRank(lowest)) {
			lowest = a.Stage
		}
	}
	if lowest == "" {
		return coach.DefaultDreyfusStage
	}
	return lowest
}

func better(a, b coach.DreyfusAssessment) bool {
	if a.Confidence != b.Confidence {
		return a.Confidence > b.Confidence
	}
	return a.AssessedAt.After(b.AssessedAt)
}

var stageOrder = []coach.DreyfusStage{coach.Novice, coach.AdvancedBeginner, coach.Competent, coach.Proficient, coach.Expert}

func stageRank(s coach.DreyfusStage) int { return slices.Index(stageOrder, s) }

// stopWords carry no topic.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "the": true, "of": true, "in": true, "on": true, "to": true,
	"for": true, "with": true, "is": true, "it": true, "at": true, "by": true, "or": true, "as": true,
}

// Words returns the lower-cased words of s (letters and digits), without
// stop words and duplicates, in order of first appearance. "React state
// management" → [react state management]; "src/auth.ts" → [src auth ts].
func Words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !stopWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// overlap counts the words of a that are also in b.
func overlap(a, b []string) int {
	n := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			n++
		}
	}
	return n
}
