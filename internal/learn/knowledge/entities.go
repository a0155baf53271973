package knowledge

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// MaxEntities is how many entities [Entities] returns at most.
const MaxEntities = 8

// Entities returns the real entities named in s, in order of appearance,
// each once (case-insensitively), at most [MaxEntities]: tools, libraries,
// commands, paths, languages, services, branches and environment names —
// not any word that is not a stopword. What counts:
//
//   - text in backquotes (`go test ./...`), as one entity;
//   - a name Paige knows (languages, package managers, build and test
//     tools, linters, frameworks, databases, services, CI, git words such
//     as "main" and "force-push"), one word or two ("go vet", "cargo
//     nextest");
//   - by shape: a path (src/app.ts, ./bin, ~/.zshrc), a file with an
//     extension or a dot file (.env, tsconfig.json), a flag (--force, -D),
//     a scoped package (@xterm/xterm), a dotted or snake_case name
//     (phx.server, customer_id), a name with a digit (python3, tool07), a
//     mixed-case or all-caps name (TypeScript, SettingsPage, DATABASE_URL),
//     a capitalised word inside a sentence (Clerk, Postgres);
//   - "X branch" / "X branches" ("release branches").
//
// Entities is what dedup and supersede compare ([IsDuplicate],
// [Supersedes]): "Run eslint before committing" names eslint, "Run go vet
// before committing" names go vet, and they are different rules.
func Entities(s string) []string {
	var out []string
	var keys [MaxEntities]string // the entities found, lower-cased
	add := func(e string) bool {
		if e == "" {
			return true
		}
		k := strings.ToLower(e)
		for _, seen := range keys[:len(out)] {
			if seen == k {
				return true
			}
		}
		keys[len(out)] = k
		out = append(out, e)
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
	var buf [32]entityWord
	words := entityWords(buf[:0], s)
	for i := 0; i < len(words); i++ {
		w := words[i]
		if i+1 < len(words) {
			if next := words[i+1]; w.flags&pairFirst != 0 && knownNames()[w.lower+" "+next.lower] ||
				(next.lower == "branch" || next.lower == "branches") && w.flags&stopWord == 0 {
				if !add(w.text + " " + next.text) {
					return out
				}
				i++
				continue
			}
		}
		if isEntityWord(w, w.initial) && !add(w.text) {
			return out
		}
	}
	return out
}

// IsEntity reports whether e, an entity given with an entry (by a model,
// say), names a real thing by the rules of [Entities], a capitalised
// name included ("Clerk"): "go vet", "TypeScript", ".env" and "release
// branches" do; "committing", "passes" and "best practices" do not.
func IsEntity(e string) bool {
	e = strings.TrimSpace(e)
	if e == "" {
		return false
	}
	if knownNames()[strings.ToLower(e)] {
		return true
	}
	var buf [8]entityWord
	ws := entityWords(buf[:0], e)
	if len(ws) == 2 {
		if nb := ws[1].lower; nb == "branch" || nb == "branches" {
			return true
		}
	}
	for _, w := range ws {
		if isEntityWord(w, false) {
			return true
		}
	}
	return false
}

// Flags of a lower-cased word in wordFlags.
const (
	knownName = 1 << iota // a known name ([knownNames])
	pairFirst             // the first word of a two-word known name
	stopWord              // never an entity by itself ([entityStop])
)

// wordFlags are the flags of the words that have some, so that a word
// costs one lookup. A word that is no pairFirst starts no known pair:
// lower-casing "a b" lower-cases a and b apart (the space stays), so the
// pair need not be built.
var wordFlags = sync.OnceValue(func() map[string]uint8 {
	out := map[string]uint8{}
	for name := range knownNames() {
		out[name] |= knownName
		if first, rest, ok := strings.Cut(name, " "); ok && !strings.Contains(rest, " ") {
			out[first] |= pairFirst
		}
	}
	for w := range entityStop() {
		out[w] |= stopWord
	}
	return out
})

type entityWord struct {
	text, lower string // lower is strings.ToLower(text)
	flags       uint8  // wordFlags of lower
	initial     bool   // first word of a sentence (or of the text)
}

// entityWords appends to buf the words of s, split at white space, with
// the punctuation around each trimmed, marking the words that open a
// sentence.
func entityWords(buf []entityWord, s string) []entityWord {
	initial := true
	flags := wordFlags()
	for f := range strings.FieldsSeq(s) {
		w := trimEntityPunct(f)
		w = strings.TrimRight(w, ".")
		if strings.HasPrefix(w, "'") || strings.HasSuffix(w, "'s") {
			w = strings.TrimSuffix(strings.TrimPrefix(w, "'"), "'s")
		}
		if w != "" {
			lw := lowerWord(w)
			buf = append(buf, entityWord{text: w, lower: lw, flags: flags[lw], initial: initial})
		}
		last := f[len(f)-1] // a rune ending in one of these bytes is that character
		initial = last == '.' || last == '!' || last == '?' || last == ':'
	}
	return buf
}

// lowerWord is strings.ToLower(w), w itself when it is ASCII without
// upper-case letters (checked in one pass).
func lowerWord(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 0x80 || 'A' <= c && c <= 'Z' {
			return strings.ToLower(w)
		}
	}
	return w
}

// trimEntityPunct trims the characters ()[]{}<>,;:!?"'* from both ends
// of f. They are ASCII, so trimming bytes trims the same runes: any other
// rune, invalid UTF-8 included, stops it.
func trimEntityPunct(f string) string {
	i, j := 0, len(f)
	for i < j && isEntityPunct(f[i]) {
		i++
	}
	for j > i && isEntityPunct(f[j-1]) {
		j--
	}
	return f[i:j]
}

func isEntityPunct(c byte) bool {
	switch c {
	case '(', ')', '[', ']', '{', '}', '<', '>', ',', ';', ':', '!', '?', '"', '\'', '*':
		return true
	}
	return false
}

// isEntityWord reports whether one word names a thing: a known name or
// the shape of one (see [Entities]); a capitalised word counts only when
// it does not open a sentence.
func isEntityWord(w entityWord, initial bool) bool {
	if len(w.text) < 2 || w.flags&stopWord != 0 {
		return w.flags&(knownName|stopWord) == knownName
	}
	if w.flags&knownName != 0 {
		return true
	}
	shaped, digit := false, false
	for i := 0; i < len(w.text); i++ {
		switch c := w.text[i]; {
		case c == '/' || c == '.' || c == '-' || c == '@' || c == '_':
			shaped = true
		case '0' <= c && c <= '9':
			digit = true
		}
	}
	if shaped && hasEntityShape(w.text) { // each shape needs one of /.-@_
		return true
	}
	if digit { // python3, tool07; not 2MB, v1.2, 60s
		return hasLetter(w.text) && !isNumberShape(w.lower)
	}
	upper, lowerAfter := 0, false
	for i, r := range w.text {
		if unicode.IsUpper(r) {
			upper++
			if i > 0 {
				lowerAfter = true // an upper-case letter inside: TypeScript, GitHub
			}
		}
	}
	switch {
	case upper >= 2 && (lowerAfter || upper == utf8.RuneCountInString(w.text)): // TypeScript, CI, AWS
		return true
	case upper == 1 && unicode.IsUpper(firstRune(w.text)) && !initial && w.flags&stopWord == 0: // Clerk
		return true
	}
	return false
}

func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

type entityRes struct {
	backquote *regexp.Regexp
}

// entityPatterns are compiled on first use, not at process start. The
// shapes of words are matched by hand (shapes.go).
var entityPatterns = sync.OnceValue(func() *entityRes {
	return &entityRes{backquote: regexp.MustCompile("`([^`\n]{1,120})`")}
})
