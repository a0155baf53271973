package classify

import "strings"

// The tests of a turn's opening that Analyze makes before its sentences,
// and the question test of each sentence, matched by hand like the rules
// (match.go); FuzzRuleMatchers checks them against their regexps in
// rules.go.

var (
	questionWords  = set("what why how where which who whose")
	greetingWords  = set("hi hello hey howdy sup")
	greetingPhrase = []string{"good morning", "good afternoon", "good evening", "what's up", "whats up"}
	confirmations  = []string{"ok", "okay", "k", "got it", "sure", "thanks", "thank you", "ty", "great", "yes", "no", "yep", "nope",
		"alright", "understood", "roger", "ack", "cool", "nice", "perfect", "go ahead", "continue"}
)

// matchQuestion is `^(what|why|how|where|which|who|whose)\b`: the words
// are whole words, so the first word must be one of them.
func matchQuestion(s string) bool { return questionWords[wordAt(s, 0)] }

// matchGreeting is
// `^(hi|hello|hey|good (morning|afternoon|evening)|howdy|sup|what'?s up)\b`.
func matchGreeting(s string) bool {
	if greetingWords[wordAt(s, 0)] {
		return true
	}
	for _, g := range greetingPhrase {
		if strings.HasPrefix(s, g) && wordEnd(s, len(g)) {
			return true
		}
	}
	return false
}

// matchConfirmation is `^(ok|okay|…|continue)\s*[.!?]?$`: the whole text
// is one of the words, white space and at most one '.', '!' or '?'.
func matchConfirmation(s string) bool {
	for _, c := range confirmations {
		if !strings.HasPrefix(s, c) {
			continue
		}
		rest := s[skipSpaces(s, len(c)):]
		if rest == "" || len(rest) == 1 && strings.IndexByte(".!?", rest[0]) >= 0 {
			return true
		}
	}
	return false
}
