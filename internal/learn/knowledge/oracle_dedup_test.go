package knowledge

// Dedup as it was before its fast paths (word sets as maps, an entry's
// meaning computed from scratch each time), kept as the oracle of
// FuzzDedupOracle.

import (
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

type oracleIndexed struct {
	typ       learn.KnowledgeType
	forgotten bool
	words     map[string]struct{}
	meaning   oracleMeaning
}

type oracleIndex struct{ items []oracleIndexed }

func oracleNewIndex(entries []learn.Entry) *oracleIndex {
	x := &oracleIndex{}
	for _, e := range entries {
		x.items = append(x.items, oracleIndexed{typ: e.Type, forgotten: e.Forgotten, words: oracleWords(e.Content), meaning: oracleMeaningOf(e)})
	}
	return x
}

func oracleJaccard(a, b string) float64 { return oracleJaccardSets(oracleWords(a), oracleWords(b)) }

func oracleSupersedes(candidate, old learn.Entry) bool {
	if candidate.Type != old.Type || candidate.Confidence < old.Confidence {
		return false
	}
	c, o := oracleMeaningOf(candidate), oracleMeaningOf(old)
	if !c.oracleSharesEntity(o) || oracleConflict(c, o) {
		return false
	}
	j := oracleJaccard(candidate.Content, old.Content)
	return j >= 0.4 && j <= 0.6
}
func oracleWords(s string) map[string]struct{} {
	out := map[string]struct{}{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	}) {
		if len(w) > 2 {
			out[w] = struct{}{}
		}
	}
	return out
}
func oracleIsDuplicate(e learn.Entry, existing []learn.Entry) bool {
	x := oracleNewIndex(existing)
	var cw map[string]struct{}
	var cm oracleMeaning
	for _, it := range x.items {
		if it.typ != e.Type {
			continue
		}
		if cw == nil {
			cw, cm = oracleWords(e.Content), oracleMeaningOf(e)
		}
		if !it.forgotten {
			if none := len(cm.entities) == 0 && len(it.meaning.entities) == 0; none && oracleWordsConflict(cm, it.meaning) {
				continue // naming no entity, each says a word the other does not ("run semgrep" / "run trivy")
			} else if !none && !cm.oracleSharesEntity(it.meaning) {
				continue // about different things
			}
		}
		if oracleSameThing(cm, it.meaning, oracleJaccardSets(it.words, cw)) {
			return true
		}
	}
	return false
}
func oracleJaccardSets(wa, wb map[string]struct{}) float64 {
	union, inter := len(wa), 0
	for w := range wb {
		if _, ok := wa[w]; ok {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

type oracleMeaning struct {
	mentions map[string]bool   // stemmed tokens of content and entities
	entities []map[string]bool // stemmed tokens of each entity
	words    map[string]struct{}
	negated  bool
}

func oracleMeaningOf(e learn.Entry) oracleMeaning {
	m := oracleMeaning{mentions: map[string]bool{}, words: map[string]struct{}{}, negated: negated(e.Content)}
	for _, raw := range oracleTokens(e.Content) {
		w := raw
		if negWords[w] {
			w = "not" // "never", "don't", "no": one negation
		}
		w = stem(w)
		m.mentions[w] = true
		if len(w) > 1 && !filler[raw] && !filler[w] {
			m.words[w] = struct{}{}
		}
	}
	for _, ent := range oracleMeaningEntities(e) {
		set := map[string]bool{}
		for _, w := range oracleTokens(ent) {
			set[stem(w)] = true
			m.mentions[stem(w)] = true
		}
		if len(set) > 0 {
			m.entities = append(m.entities, set)
		}
	}
	return m
}

// meaningEntities are the entities dedup compares for e: the real
// entities its content names ([Entities]) and those given with it that are
// real ([IsEntity]: a model's "go vet" or "Clerk", not the words
// "committing" or "best practices" older heuristics stored) and that the
// content mentions (what an entry says is what it names).
func oracleMeaningEntities(e learn.Entry) []string {
	out := Entities(e.Content)
	var said map[string]bool
	for _, g := range e.Entities {
		if !IsEntity(g) {
			continue
		}
		if said == nil {
			said = map[string]bool{}
			for _, w := range oracleTokens(e.Content) {
				said[stem(w)] = true
			}
		}
		mentioned := true
		for _, w := range oracleTokens(g) {
			mentioned = mentioned && said[stem(w)]
		}
		if mentioned {
			out = append(out, g)
		}
	}
	return out
}

// conflict reports whether a and b each name a thing the other does not
// mention: "eslint before committing" and "go vet before committing", or
// "force-push to main" and "force-push to release branches", are about
// different things however many words they share.
func oracleConflict(a, b oracleMeaning) bool { return oracleNamesOther(a, b) && oracleNamesOther(b, a) }

// namesOther reports whether one of a's entities is not mentioned in b.
func oracleNamesOther(a, b oracleMeaning) bool {
	for _, ent := range a.entities {
		for w := range ent {
			if !b.mentions[w] {
				return true
			}
		}
	}
	return false
}

// sameThing reports whether candidate c repeats old o by oracleMeaning: same
// polarity, nothing named by each that the other lacks, and either their
// word sets overlap by more than 0.6 or, once stemmed and without filler
// (a paraphrase: "Always run go vet before committing" / "Run go vet
// before every commit"), by more than 0.6.
func oracleSameThing(c, o oracleMeaning, rawJaccard float64) bool {
	if c.negated != o.negated || oracleConflict(c, o) {
		return false
	}
	return rawJaccard > 0.6 || oracleJaccardSets(c.words, o.words) > 0.6
}

// wordsConflict reports whether a and b each have a content word (stemmed,
// without filler) the other lacks.
func oracleWordsConflict(a, b oracleMeaning) bool {
	return oracleExtraWord(a, b) && oracleExtraWord(b, a)
}

func oracleExtraWord(a, b oracleMeaning) bool {
	for w := range a.words {
		if _, ok := b.words[w]; !ok {
			return true
		}
	}
	return false
}

// sharesEntity reports whether a and b have an entity token in common
// ("go vet" and "vet", "commits" and "commit").
func (a oracleMeaning) oracleSharesEntity(b oracleMeaning) bool {
	for _, x := range a.entities {
		for _, y := range b.entities {
			for w := range x {
				if y[w] {
					return true
				}
			}
		}
	}
	return false
}

func oracleTokens(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || r == '/' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
	for i, w := range f {
		f[i] = strings.Trim(w, ".-/")
	}
	return f
}
