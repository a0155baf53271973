package classify

// factCueWords are the words of factCue's alternatives, by the word that
// starts them: what must follow (after one space, as a whole ASCII word),
// or nil when the word alone matches.
var factCueWords = map[string]map[string]bool{
	"is":      set("on in at behind hosted deployed served stored generated running written managed built configured located kept owned pinned"),
	"are":     set("on in at behind hosted deployed served stored generated running written managed built configured located kept owned pinned"),
	"lives":   nil,
	"listens": nil,
	"depends": set("on"),
	"runs":    set("on"),
	"we":      set("have host deploy run"),
}

// factCueSubjects are the nouns of "<noun> is|are".
var factCueSubjects = set("port url host database db server endpoint bucket region branch version account repo api service")

var isAre = set("is are")

// ourVerbs are the verbs of "our <thing> is|are|uses|runs|lives".
var ourVerbs = set("is are uses runs lives")

func set(words string) map[string]bool {
	m := map[string]bool{}
	start := -1
	for i := 0; i <= len(words); i++ {
		if i == len(words) || words[i] == ' ' {
			if start >= 0 {
				m[words[start:i]] = true
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return m
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// wordAt is the ASCII word (\w+) starting at i of s, empty if none.
func wordAt(s string, i int) string {
	j := i
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	return s[i:j]
}

// nextWordIn reports whether s has, at i, one space then a whole word of
// words (the regexp's ` (a|b|…)\b`).
func nextWordIn(s string, i int, words map[string]bool) bool {
	return i < len(s) && s[i] == ' ' && words[wordAt(s, i+1)]
}

// matchFactCue reports whether factCue matches s, without the regexp: at
// every start of an ASCII word (Go's \b and \w are ASCII only, and factCue
// folds no case), it tries the alternatives that begin with that word.
// ("is built with" and "is written in" are covered by "is built" and "is
// written".) FuzzFactCue checks it against factCue.
func matchFactCue(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) || i > 0 && isWordByte(s[i-1]) {
			continue
		}
		w := wordAt(s, i)
		end := i + len(w)
		if next, ok := factCueWords[w]; ok && (next == nil || nextWordIn(s, end, next)) {
			return true
		}
		if factCueSubjects[w] && nextWordIn(s, end, isAre) {
			return true
		}
		if w == "our" && end < len(s) && s[end] == ' ' && ourThing(s, end+1) {
			return true
		}
		i = end - 1
	}
	return false
}

// ourThing reports whether s has at i `[\w./@-]+ (is|are|uses|runs|lives)\b`:
// the run of thing characters cannot hold a space, so only its longest
// form can be followed by one.
func ourThing(s string, i int) bool {
	j := i
	for j < len(s) && (isWordByte(s[j]) || s[j] == '.' || s[j] == '/' || s[j] == '@' || s[j] == '-') {
		j++
	}
	return j > i && nextWordIn(s, j, ourVerbs)
}
