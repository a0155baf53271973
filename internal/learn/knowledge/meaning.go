package knowledge

import (
	"regexp"
	"strings"
	"sync"

	"github.com/paige-dev/paige/internal/learn"
)

// meaning is what dedup compares beyond words: the stemmed tokens an entry
// mentions, its entities' tokens, its content words without filler, and
// its polarity ("never …" is not "always …").
type meaning struct {
	mentions map[string]bool   // stemmed tokens of content and entities
	entities []map[string]bool // stemmed tokens of each entity
	words    map[string]struct{}
	negated  bool
}

// negation marks a negative instruction or statement; compiled on first
// use, not at process start.
var negation = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(never|not|no|don'?t|doesn'?t|avoid|cannot|can'?t|won'?t|shouldn'?t|mustn'?t)\b`)
})

// negWords are the tokens of a negation ("don't" splits into "don", "t").
var negWords = wordList(`never not no don dont doesn doesnt avoid cannot can't won't shouldn mustn`)

// filler are words that carry no meaning of their own in an entry.
var filler = wordList(`the a an to of in on at for with and or is are be been you your we our it its this that these
	always every each all any make sure please user users should must do does just only also so then`)

func wordList(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

func meaningOf(e learn.Entry) meaning {
	m := meaning{mentions: map[string]bool{}, words: map[string]struct{}{}, negated: negated(e.Content)}
	for _, raw := range tokens(e.Content) {
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
	for _, ent := range meaningEntities(e) {
		set := map[string]bool{}
		for _, w := range tokens(ent) {
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
func meaningEntities(e learn.Entry) []string {
	out := Entities(e.Content)
	var said map[string]bool
	for _, g := range e.Entities {
		if !IsEntity(g) {
			continue
		}
		if said == nil {
			said = map[string]bool{}
			for _, w := range tokens(e.Content) {
				said[stem(w)] = true
			}
		}
		mentioned := true
		for _, w := range tokens(g) {
			mentioned = mentioned && said[stem(w)]
		}
		if mentioned {
			out = append(out, g)
		}
	}
	return out
}

// stem folds the common English endings ("committing", "commits",
// "pushed" → "commit", "commit", "push").
func stem(w string) string {
	for _, suf := range []string{"ing", "ed"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			if n := len(w); n > 2 && w[n-1] == w[n-2] && w[n-1] != 's' && w[n-1] != 'l' {
				w = w[:n-1]
			}
			return w
		}
	}
	switch {
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") ||
		strings.HasSuffix(w, "es") && strings.ContainsAny(w[len(w)-3:len(w)-2], "sxz")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// conflict reports whether a and b each name a thing the other does not
// mention: "eslint before committing" and "go vet before committing", or
// "force-push to main" and "force-push to release branches", are about
// different things however many words they share.
func conflict(a, b meaning) bool { return namesOther(a, b) && namesOther(b, a) }

// namesOther reports whether one of a's entities is not mentioned in b.
func namesOther(a, b meaning) bool {
	for _, ent := range a.entities {
		for w := range ent {
			if !b.mentions[w] {
				return true
			}
		}
	}
	return false
}

// sameThing reports whether candidate c repeats old o by meaning: same
// polarity, nothing named by each that the other lacks, and either their
// word sets overlap by more than 0.6 or, once stemmed and without filler
// (a paraphrase: "Always run go vet before committing" / "Run go vet
// before every commit"), by more than 0.6.
func sameThing(c, o meaning, rawJaccard float64) bool {
	if c.negated != o.negated || conflict(c, o) {
		return false
	}
	return rawJaccard > 0.6 || jaccardSets(c.words, o.words) > 0.6
}

// wordsConflict reports whether a and b each have a content word (stemmed,
// without filler) the other lacks.
func wordsConflict(a, b meaning) bool { return extraWord(a, b) && extraWord(b, a) }

func extraWord(a, b meaning) bool {
	for w := range a.words {
		if _, ok := b.words[w]; !ok {
			return true
		}
	}
	return false
}

// sharesEntity reports whether a and b have an entity token in common
// ("go vet" and "vet", "commits" and "commit").
func (a meaning) sharesEntity(b meaning) bool {
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
