package extract

import "strings"

// The regexps of [Rewrite] matched by hand. They fold case ((?i)), which
// for the ASCII letters they hold also maps 'ſ' (U+017F) to s and the
// Kelvin sign (U+212A) to k; on a text with neither, folding ASCII letters
// is exact, and \b and \s are ASCII, so each function answers what its
// regexp answers (FuzzRewriteMatchers). A text with either goes to the
// regexp.

// foldTrap reports whether s holds a character that (?i) folds to an
// ASCII letter: 'ſ' or 'K'.
func foldTrap(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.Contains(s[i:], "\u017f") || strings.Contains(s[i:], "\u212a")
		}
	}
	return false
}

// hasPrefixFold reports whether s starts with prefix, ASCII letters
// compared without case (prefix is lower-case ASCII).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// oneOfFold returns the end of the first of list (lower-case ASCII) at i
// of s, compared without case, or -1.
func oneOfFold(s string, i int, list []string) int {
	for _, x := range list {
		if hasPrefixFold(s[i:], x) {
			return i + len(x)
		}
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// wordEnd reports whether a word ending at j of s is followed by a word
// boundary.
func wordEnd(s string, j int) bool { return j == len(s) || !isWordByte(s[j]) }

func skipSpaces(s string, i int) int {
	for i < len(s) && isSpaceByte(s[i]) {
		i++
	}
	return i
}

var (
	prefVerbs   = []string{"prefer", "rather", "like", "love", "hate", "dislike", "always", "never", "usually", "don't like", "dont like", "can't stand", "cant stand"}
	prefModals  = []string{"'d ", " would ", " "}
	decideLeads = []string{"let's", "lets", "i've decided to", "ive decided to", "i decided to", "we decided to", "we'll", "well",
		"we chose to", "we agreed to", "we're going with", "were going with", "i'll go with", "ill go with"}
	wrongSubjects = []string{"that's", "thats", "this is", "it's", "its", "that is", "you're", "youre", "you are", "this was", "that was"}
	wrongVerdicts = []string{"wrong", "incorrect", "not right", "not correct"}
)

// matchPref is rewrite.pref's FindStringSubmatchIndex:
// `(?i)\bi(?:'d| would)? (prefer|…|can'?t stand)\b`; it returns where the
// verb starts and ends (the match ends with it), ok false for no match.
func matchPref(s string) (verb, end int, ok bool) {
	for p := 0; p < len(s); p++ {
		if s[p] != 'i' && s[p] != 'I' || p > 0 && isWordByte(s[p-1]) {
			continue
		}
		for _, m := range prefModals { // at most one gets a verb: "would" is none
			if !hasPrefixFold(s[p+1:], m) {
				continue
			}
			v := p + 1 + len(m)
			if e := oneOfFold(s, v, prefVerbs); e >= 0 && wordEnd(s, e) {
				return v, e, true
			}
		}
	}
	return 0, 0, false
}

// corrLeadLen is how much rewrite.corrLead removes from the start of s:
// `(?i)^((no|nope)\b[,.!]?\s*)?((that'?s|…)\s+(wrong|incorrect|not (right|correct))\b[,.;:!]?\s*)?([—–-]+\s*)?(i meant\s*)?`.
// Each optional group, tried in turn, takes what it can (what follows it
// is optional too, so the first way it matches is the match).
func corrLeadLen(s string) int {
	i := 0
	for _, no := range []string{"no", "nope"} { // (no|nope)\b[,.!]?\s*
		if hasPrefixFold(s, no) && wordEnd(s, len(no)) {
			i = len(no)
			if i < len(s) && strings.IndexByte(",.!", s[i]) >= 0 {
				i++
			}
			i = skipSpaces(s, i)
			break
		}
	}
	i = afterWrong(s, i)
	j := i // [—–-]+\s*
	for j < len(s) {
		if s[j] == '-' {
			j++
		} else if strings.HasPrefix(s[j:], "—") || strings.HasPrefix(s[j:], "–") {
			j += len("—")
		} else {
			break
		}
	}
	if j > i {
		i = skipSpaces(s, j)
	}
	if hasPrefixFold(s[i:], "i meant") { // i meant\s*
		i = skipSpaces(s, i+len("i meant"))
	}
	return i
}

// afterWrong steps over `(that'?s|…)\s+(wrong|incorrect|not (right|correct))\b[,.;:!]?\s*`
// at i of s, if there.
func afterWrong(s string, i int) int {
	for _, subject := range wrongSubjects {
		if !hasPrefixFold(s[i:], subject) {
			continue
		}
		j := i + len(subject)
		k := skipSpaces(s, j)
		if k == j {
			continue
		}
		if e := oneOfFold(s, k, wrongVerdicts); e >= 0 && wordEnd(s, e) {
			if e < len(s) && strings.IndexByte(",.;:!", s[e]) >= 0 {
				e++
			}
			return skipSpaces(s, e)
		}
	}
	return i
}

// matchDecide is rewrite.decide's FindStringSubmatchIndex:
// `(?i)^.*?\b(let'?s|…|i'?ll go with)\s+`, where .*? stops at a line
// break; it returns where the phrase starts and ends and where the white
// space after it ends.
func matchDecide(s string) (start, phraseEnd, end int, ok bool) {
	for p := 0; p < len(s) && s[p] != '\n'; p++ {
		if p > 0 && isWordByte(s[p-1]) {
			continue
		}
		for _, lead := range decideLeads { // one at most is followed by white space
			if hasPrefixFold(s[p:], lead) {
				if e := skipSpaces(s, p+len(lead)); e > p+len(lead) {
					return p, p + len(lead), e, true
				}
			}
		}
	}
	return 0, 0, 0, false
}

// pleaseLen is how much rewrite.please, `(?i)^please\s+`, removes from the
// start of s.
func pleaseLen(s string) int {
	if !hasPrefixFold(s, "please") {
		return 0
	}
	if e := skipSpaces(s, len("please")); e > len("please") {
		return e
	}
	return 0
}
