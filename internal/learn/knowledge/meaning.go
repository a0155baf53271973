package knowledge

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/paige-dev/paige/internal/learn"
)

// meaning is what dedup compares beyond words: the stemmed tokens an entry
// mentions, its entities' tokens, its content words without filler, and
// its polarity ("never …" is not "always …").
type meaning struct {
	mentions sortedSet   // stemmed tokens of content and entities
	entities []sortedSet // stemmed tokens of each entity (none empty)
	words    sortedSet
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

// Kinds of a token in tokenKinds.
const (
	negationToken = 1 << iota // in negWords
	fillerToken               // in filler
)

// tokenKinds are negWords and filler in one map, so a token costs one
// lookup.
var tokenKinds = func() map[string]uint8 {
	m := map[string]uint8{}
	for w := range negWords {
		m[w] |= negationToken
	}
	for w := range filler {
		m[w] |= fillerToken
	}
	return m
}()

func wordList(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// indexOf reads e for dedup: the words of its content (for [Jaccard]) and
// its meaning.
func indexOf(e learn.Entry) indexed { return indexOfNamed(e, false) }

// indexOfNamed is indexOf; named says e's Entities are exactly [Entities]
// of its content, which meaningEntities then need not work out. The words
// are read into a scratch array on the stack, then copied out at once.
func indexOfNamed(e learn.Entry, named bool) indexed {
	var scratch [96]string
	var endScratch [16]int
	words, ends := readInto(e, named, scratch[:0], endScratch[:0])
	it, _ := indexedOf(e, slices.Clone(words), ends, make([]sortedSet, 0, len(ends)))
	return it
}

// readInto reads the word sets of e, one after the other, into words:
// each set ends at the matching end appended to ends. They are the words
// of its content (for Jaccard), its content words without filler, the
// tokens of each entity, and what it mentions (indexedOf).
func readInto(e learn.Entry, named bool, words []string, ends []int) ([]string, []int) {
	lc := strings.ToLower(e.Content)
	words = appendWords(words, lc)
	words, ends = finishSet(words, ends)
	var tokBuf [32]string
	toks := appendLowerTokens(tokBuf[:0], lc)
	for _, raw := range toks {
		kind := tokenKinds[raw]
		if w := stem(negationOf(raw, kind)); len(w) > 1 && kind&fillerToken == 0 && (w == raw || tokenKinds[w]&fillerToken == 0) {
			words = append(words, w)
		}
	}
	words, ends = finishSet(words, ends)
	entities := len(words)
	ents := e.Entities // named: what meaningEntities would give, as each is already in the list
	if !named {
		ents = meaningEntities(e, toks)
	}
	for _, ent := range ents {
		start := len(words)
		words = appendTokens(words, ent)
		for i := start; i < len(words); i++ {
			words[i] = stem(words[i])
		}
		if len(words) > start {
			words, ends = finishSet(words, ends)
		}
	}
	mentions := len(words)
	for _, raw := range toks {
		words = append(words, stem(negationOf(raw, tokenKinds[raw])))
	}
	words = append(words, words[entities:mentions]...)
	return finishSet(words, ends)
}

// indexedOf is e indexed, its sets the words readInto read, as slices of
// words appended to sets.
func indexedOf(e learn.Entry, words []string, ends []int, sets []sortedSet) (indexed, []sortedSet) {
	first, start := len(sets), 0
	for _, end := range ends {
		sets = append(sets, sortedSet(words[start:end:end]))
		start = end
	}
	last := len(sets) - 1
	return indexed{typ: e.Type, forgotten: e.Forgotten, words: sets[first], meaning: meaning{
		words: sets[first+1], entities: sets[first+2 : last : last], mentions: sets[last], negated: negated(e.Content)}}, sets
}

// own returns it with its sets copied out of the index's scratch arrays,
// in one allocation (and one for its entities).
func (it indexed) own() indexed {
	n := len(it.words) + len(it.meaning.words) + len(it.meaning.mentions)
	for _, ent := range it.meaning.entities {
		n += len(ent)
	}
	all := make([]string, 0, n)
	all, it.words = appendSet(all, it.words)
	all, it.meaning.words = appendSet(all, it.meaning.words)
	all, it.meaning.mentions = appendSet(all, it.meaning.mentions)
	ents := make([]sortedSet, len(it.meaning.entities))
	for i, ent := range it.meaning.entities {
		all, ents[i] = appendSet(all, ent)
	}
	it.meaning.entities = ents
	return it
}

// appendSet appends the words of s to all and returns all and them there.
func appendSet(all []string, s sortedSet) ([]string, sortedSet) {
	all = append(all, s...)
	return all, sortedSet(all[len(all)-len(s) : len(all) : len(all)])
}

// negationOf is "not" for a negation token ("never", "don't", "no": one
// negation), else the token; kind is its tokenKinds.
func negationOf(raw string, kind uint8) string {
	if kind&negationToken != 0 {
		return "not"
	}
	return raw
}

// meaningEntities are the entities dedup compares for e, whose content's
// tokens are toks: the real entities its content names ([Entities]) and
// those given with it that are real ([IsEntity]: a model's "go vet" or
// "Clerk", not the words "committing" or "best practices" older
// heuristics stored) and that the content mentions (what an entry says is
// what it names). A given entity already in the list is left out: it
// would add the same token set again, and every comparison of entities
// asks whether some entity does something, so a repeat changes no answer
// (the heuristics' entries carry exactly the entities of their content).
func meaningEntities(e learn.Entry, toks []string) []string {
	out := Entities(e.Content)
	var said sortedSet
	for _, g := range e.Entities {
		if slices.Contains(out, g) || !IsEntity(g) {
			continue
		}
		if said == nil {
			said = make(sortedSet, len(toks))
			for i, w := range toks {
				said[i] = stem(w)
			}
			said = newSortedSet(said)
		}
		mentioned := true
		for _, w := range tokens(g) {
			mentioned = mentioned && said.has(stem(w))
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
		if !ent.within(b.mentions) {
			return true
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
	return rawJaccard > 0.6 || jaccard(c.words, o.words) > 0.6
}

// wordsConflict reports whether a and b each have a content word (stemmed,
// without filler) the other lacks.
func wordsConflict(a, b meaning) bool { return extraWord(a, b) && extraWord(b, a) }

func extraWord(a, b meaning) bool { return !a.words.within(b.words) }

// sharesEntity reports whether a and b have an entity token in common
// ("go vet" and "vet", "commits" and "commit").
func (a meaning) sharesEntity(b meaning) bool {
	for _, x := range a.entities {
		for _, y := range b.entities {
			if x.intersects(y) {
				return true
			}
		}
	}
	return false
}
