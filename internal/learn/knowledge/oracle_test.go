package knowledge

// The code this package's fast paths stand in for, kept as the oracle of
// the fuzz tests (FuzzEntitiesOracle).

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

var oraclePairFirsts = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for name := range knownNames() {
		if first, rest, ok := strings.Cut(name, " "); ok && !strings.Contains(rest, " ") {
			out[first] = true
		}
	}
	return out
})

type oracleEntityWord struct {
	text    string
	initial bool
}

// oracleShapes are the regexps of the word shapes (shapes.go).
var oracleShapes = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"path":   regexp.MustCompile(`^(~|\.{1,2})?/?[\w.@-]+/[\w./@-]*$`),
		"file":   regexp.MustCompile(`^[\w-]*\.(go|mod|sum|py|pyi|rs|toml|ts|tsx|js|jsx|mjs|cjs|json|jsonc|ya?ml|md|sh|bash|zsh|rb|ex|exs|heex|eex|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|php|sql|tf|tfvars|tfstate|lock|env|ini|cfg|conf|txt|csv|html|css|scss|vue|svelte|proto|graphql|dockerfile|xml|gradle|ipynb)$|^\.[\w.-]+$`),
		"flag":   regexp.MustCompile(`^--?[a-zA-Z][\w-]*(=\S+)?$`),
		"scoped": regexp.MustCompile(`^@[\w.-]+(/[\w.-]+)?$`),
		"dotted": regexp.MustCompile(`^[a-zA-Z]\w*(\.[a-zA-Z]\w*)+$`),
		"snake":  regexp.MustCompile(`^[a-zA-Z]+(_[a-zA-Z0-9]+)+$`),
		"number": regexp.MustCompile(`^(\d+(st|nd|rd|th|s|x|k|m|mb|gb|kb|ms|px|%)?|v?\d+(\.\d+)*)$`),
	}
})

// oracleEntities is Entities as it was before its fast paths.
func oracleEntities(s string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(e string) bool {
		if k := strings.ToLower(e); e != "" && !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
		return len(out) < MaxEntities
	}
	if strings.Contains(s, "`") {
		p := entityPatterns()
		for _, m := range p.backquote.FindAllStringSubmatch(s, -1) {
			if !add(strings.TrimSpace(m[1])) {
				return out
			}
		}
		s = p.backquote.ReplaceAllString(s, " ")
	}
	words := oracleEntityWords(s)
	for i := 0; i < len(words); i++ {
		w := words[i]
		if i+1 < len(words) {
			if oraclePairFirsts()[strings.ToLower(w.text)] && knownNames()[strings.ToLower(w.text+" "+words[i+1].text)] {
				if !add(w.text + " " + words[i+1].text) {
					return out
				}
				i++
				continue
			}
			if nb := strings.ToLower(words[i+1].text); (nb == "branch" || nb == "branches") && !entityStop()[strings.ToLower(w.text)] {
				if !add(w.text + " " + words[i+1].text) {
					return out
				}
				i++
				continue
			}
		}
		if oracleIsEntityWord(w.text, w.initial) && !add(w.text) {
			return out
		}
	}
	return out
}

// entityWords splits s at white space and trims the punctuation around
// each word, marking the words that open a sentence.
func oracleEntityWords(s string) []oracleEntityWord {
	fields := strings.Fields(s)
	out := make([]oracleEntityWord, 0, len(fields))
	initial := true
	for _, f := range fields {
		w := strings.TrimFunc(f, func(r rune) bool { return strings.ContainsRune(`()[]{}<>,;:!?"'*`, r) })
		w = strings.TrimRight(w, ".")
		if strings.HasPrefix(w, "'") || strings.HasSuffix(w, "'s") {
			w = strings.TrimSuffix(strings.TrimPrefix(w, "'"), "'s")
		}
		if w != "" {
			out = append(out, oracleEntityWord{text: w, initial: initial})
		}
		last, _ := utf8.DecodeLastRuneInString(f)
		initial = last == '.' || last == '!' || last == '?' || last == ':'
	}
	return out
}

// isEntityWord reports whether one word names a thing: a known name or
// the shape of one (see [Entities]); a capitalised word counts only when
// it does not open a sentence.
func oracleIsEntityWord(w string, initial bool) bool {
	lw := strings.ToLower(w)
	if len(w) < 2 || entityStop()[lw] {
		return knownNames()[lw] && !entityStop()[lw]
	}
	if knownNames()[lw] {
		return true
	}
	if strings.ContainsAny(w, "/.-@_") { // each shape below needs one of them: most words skip the regexps
		p := oracleShapes()
		if p["path"].MatchString(w) || p["file"].MatchString(w) || p["flag"].MatchString(w) || p["scoped"].MatchString(w) ||
			p["dotted"].MatchString(w) || p["snake"].MatchString(w) {
			return true
		}
	}
	if strings.ContainsAny(w, "0123456789") { // python3, tool07; not 2MB, v1.2, 60s
		return hasLetter(w) && !oracleShapes()["number"].MatchString(lw)
	}
	upper, lowerAfter := 0, false
	for i, r := range w {
		if unicode.IsUpper(r) {
			upper++
			if i > 0 {
				lowerAfter = true // an upper-case letter inside: TypeScript, GitHub
			}
		}
	}
	switch {
	case upper >= 2 && (lowerAfter || upper == utf8.RuneCountInString(w)): // TypeScript, CI, AWS
		return true
	case upper == 1 && unicode.IsUpper(firstRune(w)) && !initial && !entityStop()[lw]: // Clerk
		return true
	}
	return false
}

// oracleIsEntity is IsEntity as it was before its fast paths.
func oracleIsEntity(e string) bool {
	e = strings.TrimSpace(e)
	if e == "" {
		return false
	}
	if knownNames()[strings.ToLower(e)] {
		return true
	}
	ws := oracleEntityWords(e)
	if len(ws) == 2 {
		if nb := strings.ToLower(ws[1].text); nb == "branch" || nb == "branches" {
			return true
		}
	}
	for _, w := range ws {
		if oracleIsEntityWord(w.text, false) {
			return true
		}
	}
	return false
}
