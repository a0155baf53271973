package knowledge

import "strings"

// negationWords are the whole words negation matches; negationStems those
// it matches followed by "'t" ("don't", "can't").
var (
	negationWords = wordList(`never not no avoid cannot dont doesnt cant wont shouldnt mustnt`)
	negationStems = wordList(`don doesn can won shouldn mustn`)
)

// negated reports whether negation matches s. On ASCII text it looks at
// each ASCII word (Go's \b is ASCII only) lower-cased; text with any other
// byte goes to the regexp, whose case folding also maps 'ſ' to 's'.
// FuzzNegated checks it against the regexp.
func negated(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return negation().MatchString(s)
		}
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) || i > 0 && isWordByte(s[i-1]) {
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if j-i <= len("shouldnt") {
			w := strings.ToLower(s[i:j])
			if negationWords[w] {
				return true
			}
			if negationStems[w] && j+1 < len(s) && s[j] == '\'' && (s[j+1] == 't' || s[j+1] == 'T') &&
				(j+2 == len(s) || !isWordByte(s[j+2])) {
				return true
			}
		}
		i = j - 1
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
