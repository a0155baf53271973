package classify

import "strings"

// The rules' regexps matched by hand. Every rule sees a lower-cased
// sentence and no regexp of this file folds case; \b, \w and \s are ASCII
// (\s is [\t\n\f\r ]), and the one `.` (instead) cannot cross a line
// break, so a text holding one goes to the regexp. On any other text each
// function answers exactly what its regexp (quoted above it, in rules.go)
// answers: FuzzRuleMatchers checks them against each other.

// phrases are words or phrases each opening and ending with a word
// character, to be found between word boundaries (`\b(a|b|…)\b`), by
// their first byte.
type phrases [256][]string

// newPhrases returns the phrases of list, each with every "'?" in it
// expanded (`don'?t` is "don't" and "dont").
func newPhrases(list ...string) *phrases {
	p := &phrases{}
	for _, s := range list {
		for _, x := range expandOptionalQuote(s) {
			p[x[0]] = append(p[x[0]], x)
		}
	}
	return p
}

func expandOptionalQuote(s string) []string {
	before, after, ok := strings.Cut(s, "'?")
	if !ok {
		return []string{s}
	}
	var out []string
	for _, rest := range expandOptionalQuote(after) {
		out = append(out, before+"'"+rest, before+rest)
	}
	return out
}

// in reports whether one of p occurs in s between word boundaries.
func (p *phrases) in(s string) bool {
	for i := 0; i < len(s); i++ {
		if !wordStart(s, i) {
			continue
		}
		if p.at(s, i) {
			return true
		}
	}
	return false
}

// at reports whether one of p is at i of s followed by a word boundary.
func (p *phrases) at(s string, i int) bool {
	for _, x := range p[s[i]] {
		if strings.HasPrefix(s[i:], x) && wordEnd(s, i+len(x)) {
			return true
		}
	}
	return false
}

// wordStart reports whether a word starts at i of s (\b before a word
// character).
func wordStart(s string, i int) bool { return isWordByte(s[i]) && (i == 0 || !isWordByte(s[i-1])) }

// wordEnd reports whether a word that ends at j of s is followed by a word
// boundary.
func wordEnd(s string, j int) bool { return j == len(s) || !isWordByte(s[j]) }

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// skipSpaces returns the end of the run of white space (\s*) at i of s.
func skipSpaces(s string, i int) int {
	for i < len(s) && isSpaceByte(s[i]) {
		i++
	}
	return i
}

// spacesThen returns the end of a run of one or more white space
// characters at i (\s+), or -1.
func spacesThen(s string, i int) int {
	if j := skipSpaces(s, i); j > i {
		return j
	}
	return -1
}

// afterWord returns the end of the white space after word at i of s
// (`word\s+`), or -1.
func afterWord(s string, i int, word string) int {
	if !strings.HasPrefix(s[i:], word) {
		return -1
	}
	return spacesThen(s, i+len(word))
}

// leading returns where the text after optional leading words starts:
// each of words in turn, when s has it at i followed by white space
// (`^(please\s+)?(just\s+)?`), is stepped over with that space.
func leading(s string, i int, words ...string) int {
	for _, w := range words {
		if j := afterWord(s, i, w); j >= 0 {
			i = j
		}
	}
	return i
}

// oneOf returns the end of the first of list at i of s, or -1: for
// alternatives none of which is a prefix of another.
func oneOf(s string, i int, list ...string) int {
	for _, x := range list {
		if strings.HasPrefix(s[i:], x) {
			return i + len(x)
		}
	}
	return -1
}

// nonSpaceAt reports whether s has a character other than white space at
// i (\S).
func nonSpaceAt(s string, i int) bool { return i >= 0 && i < len(s) && !isSpaceByte(s[i]) }

var (
	preferencePhrases = newPhrases("i prefer", "i like", "i love", "i hate", "i dislike", "i always", "i never", "i usually",
		"i don'?t like", "i can'?t stand", "i'd prefer", "i'd rather", "i would prefer", "i would rather")
	conditionWords    = []string{"if", "when", "whenever", "unless", "whether", "once", "in case"}
	correctionPhrases = newPhrases("i meant", "i said", "wrong file", "wrong one", "wrong place", "wrong function", "wrong directory",
		"wrong branch", "wrong command", "wrong version", "wrong approach")
	wrongSubjects = []string{"that's", "thats", "this is", "it's", "its", "that is", "you're", "youre", "you are", "this was", "that was"}
	policyPhrases = newPhrases("we always", "we never", "we should", "we must", "we don'?t", "we do not", "we only use", "we use",
		"our standard", "our convention", "our policy", "our rule", "our style", "don'?t ever", "don'?t use")
	ourModals       = newPhrases("must", "should", "shall", "have to", "has to", "need to", "needs to", "always", "never")
	durablePhrases  = newPhrases("from now on", "going forward", "starting now", "from here on")
	decisionPhrases = newPhrases("let'?s go with", "let'?s use", "let'?s choose", "let'?s pick", "let'?s stick with", "let'?s switch to",
		"i'?ve decided", "i decided", "we'?ll use", "we decided", "we chose", "we agreed", "the decision is", "we'?re going with",
		"i'?ll go with")
	nowPhrases = newPhrases("right now", "for now", "now", "this time", "today", "tonight", "for the moment", "at the moment",
		"for this task", "for this session", "for this one", "for this pr", "for this change")
)

// matchPreference is the preference rule's Re.
func matchPreference(s string) bool { return preferencePhrases.in(s) }

// matchConditional is the preference rule's Unless:
// `\b(if|when|whenever|unless|whether|once|in case)\s+i\b`.
func matchConditional(s string) bool {
	for i := 0; i < len(s); i++ {
		if !wordStart(s, i) {
			continue
		}
		for _, w := range conditionWords {
			if j := afterWord(s, i, w); j >= 0 && j < len(s) && s[j] == 'i' && wordEnd(s, j+1) {
				return true
			}
		}
	}
	return false
}

// matchCorrection is the correction rule's Re.
func matchCorrection(s string) bool {
	if j := oneOf(s, 0, "nope", "no"); j >= 0 && wordEnd(s, j) { // ^(no|nope)\b[,.!]?\s+\S
		if j < len(s) && (s[j] == ',' || s[j] == '.' || s[j] == '!') {
			j++
		}
		if k := spacesThen(s, j); nonSpaceAt(s, k) {
			return true
		}
	}
	for _, lead := range []string{"incorrect", "that's incorrect", "thats incorrect"} { // ^(that'?s )?incorrect\b
		if strings.HasPrefix(s, lead) && wordEnd(s, len(lead)) {
			return true
		}
	}
	if correctionPhrases.in(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		if !wordStart(s, i) {
			continue
		}
		if strings.HasPrefix(s[i:], "not what i ") && oneOf(s, i+len("not what i "), "asked", "meant", "wanted", "said") >= 0 {
			return true
		}
		for _, subject := range wrongSubjects { // \b(that'?s|…)\s+(wrong|incorrect|not (right|correct|what i))
			if j := afterWord(s, i, subject); j >= 0 && oneOf(s, j, "wrong", "incorrect", "not right", "not correct", "not what i") >= 0 {
				return true
			}
		}
	}
	return false
}

// matchPolicy is the policy rule's Re.
func matchPolicy(s string) bool {
	if policyPhrases.in(s) {
		return true
	}
	for i := 0; i < len(s); i++ { // \bour\s+T(\s+T)?\s+(must|…|never)\b, T = [\w./@-]+
		if !wordStart(s, i) {
			continue
		}
		j := afterWord(s, i, "our")
		if j < 0 || thingEnd(s, j) < 0 {
			continue
		}
		k := spacesThen(s, thingEnd(s, j))
		if k < len(s) && ourModals.at(s, k) {
			return true
		}
		if k < len(s) && thingEnd(s, k) >= 0 {
			if m := spacesThen(s, thingEnd(s, k)); m < len(s) && ourModals.at(s, m) {
				return true
			}
		}
	}
	return false
}

// thingEnd returns the end of the run of [\w./@-] at i of s, -1 when
// there is none or it does not end at white space (the regexp's run must
// be followed by \s+, so only the longest run can be).
func thingEnd(s string, i int) int {
	j := i
	for j < len(s) && (isWordByte(s[j]) || s[j] == '.' || s[j] == '/' || s[j] == '@' || s[j] == '-') {
		j++
	}
	if j == i || j == len(s) || !isSpaceByte(s[j]) {
		return -1
	}
	return j
}

// imperativeStart returns where what follows an imperative opening of s
// starts (`^(please\s+)?(always|never|don'?t|do not|…)\s+` with the verbs
// given), or -1.
func imperativeStart(s string, verbs ...string) int {
	i := leading(s, 0, "please")
	j := oneOf(s, i, verbs...)
	if j < 0 {
		return -1
	}
	return spacesThen(s, j)
}

// matchImperative is the imperative rule's Re:
// `^(please\s+)?(always|never|don'?t|do not|make sure (to|you)|remember to)\s+[a-z]`.
func matchImperative(s string) bool {
	j := imperativeStart(s, "always", "never", "don't", "dont", "do not", "make sure to", "make sure you", "remember to")
	return j >= 0 && j < len(s) && s[j] >= 'a' && s[j] <= 'z'
}

// matchDurable is the durable rule's Re.
func matchDurable(s string) bool { return durablePhrases.in(s) }

// matchDecision is the decision rule's Re.
func matchDecision(s string) bool { return decisionPhrases.in(s) }

// matchTransient is the transient veto (Unless of the imperative rules).
func matchTransient(s string) bool {
	// ^(please\s+)?(always|never|don'?t|do not)\s+(stop|quit|give up|halt|pause|finish|rest)\b\s*(until|till|unless|before|[.!]*$)
	if j := imperativeStart(s, "always", "never", "don't", "dont", "do not"); j >= 0 {
		if k := oneOf(s, j, "stop", "quit", "give up", "halt", "pause", "finish", "rest"); k >= 0 && wordEnd(s, k) {
			k = skipSpaces(s, k)
			if oneOf(s, k, "until", "till", "unless", "before") >= 0 || strings.Trim(s[k:], ".!") == "" {
				return true
			}
		}
	}
	// ^(please\s+)?(never|don'?t|do not)\s+mind\b
	if j := imperativeStart(s, "never", "don't", "dont", "do not"); j >= 0 && strings.HasPrefix(s[j:], "mind") && wordEnd(s, j+4) {
		return true
	}
	for i := 0; i < len(s); i++ {
		if !wordStart(s, i) {
			continue
		}
		// \b(right now|…|for this (task|…))\b([^(]|$)
		for _, x := range nowPhrases[s[i]] {
			if end := i + len(x); strings.HasPrefix(s[i:], x) && wordEnd(s, end) && (end == len(s) || s[end] != '(') {
				return true
			}
		}
		// \byet([.!,;]|$)
		if strings.HasPrefix(s[i:], "yet") && (i+3 == len(s) || strings.IndexByte(".!,;", s[i+3]) >= 0) {
			return true
		}
	}
	return false
}

// matchInstead is the instead rule's Re:
// `^(please\s+)?(just\s+)?use\s+\S.*(\b(instead of|rather than)\b|\binstead[.!]?$|[,;]\s*(and\s+)?not\s+(the\s+)?\S+[.!]?$)`.
// ok is false on a text with a line break, which `.` does not cross.
func matchInstead(s string) (match, ok bool) {
	if strings.IndexByte(s, '\n') >= 0 {
		return false, false
	}
	j := afterWord(s, leading(s, 0, "please", "just"), "use")
	if !nonSpaceAt(s, j) {
		return false, true
	}
	// What .* may skip starts after the \S; every tail opens with an
	// ASCII byte, so it cannot start inside that character.
	for i := j + 1; i < len(s); i++ {
		switch {
		case wordStart(s, i) && (insteadPhrases.at(s, i) || strings.TrimRight(s[i:], ".!") == "instead" && len(s)-i <= len("instead")+1):
			return true, true
		case (s[i] == ',' || s[i] == ';') && notTail(s, i+1):
			return true, true
		}
	}
	return false, true
}

var insteadPhrases = newPhrases("instead of", "rather than")

// notTail reports whether s from i is `\s*(and\s+)?not\s+(the\s+)?\S+[.!]?$`.
func notTail(s string, i int) bool {
	i = skipSpaces(s, i)
	if j := afterWord(s, i, "and"); j >= 0 {
		i = j
	}
	j := afterWord(s, i, "not")
	if j < 0 {
		return false
	}
	if lastWord(s[j:]) {
		return true
	}
	k := afterWord(s, j, "the")
	return k >= 0 && lastWord(s[k:])
}

// lastWord reports whether s is `\S+[.!]?` whole: not empty, no white space.
func lastWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if isSpaceByte(s[i]) {
			return false
		}
	}
	return true
}

// matchRefusal is the refusal rule's Re:
// `^(please\s+)?(just\s+)?(no[,.!]?\s+)?(use|don'?t|do not)\s+\S`.
func matchRefusal(s string) bool {
	i := leading(s, 0, "please", "just")
	if strings.HasPrefix(s[i:], "no") {
		j := i + 2
		if j < len(s) && (s[j] == ',' || s[j] == '.' || s[j] == '!') {
			j++
		}
		if k := spacesThen(s, j); k >= 0 {
			i = k
		}
	}
	j := oneOf(s, i, "use", "don't", "dont", "do not")
	return j >= 0 && nonSpaceAt(s, spacesThen(s, j))
}
