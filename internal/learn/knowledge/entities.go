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
	words := entityWords(s)
	for i := 0; i < len(words); i++ {
		w := words[i]
		if i+1 < len(words) {
			if pairFirsts()[strings.ToLower(w.text)] && knownNames()[strings.ToLower(w.text+" "+words[i+1].text)] {
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
		if isEntityWord(w.text, w.initial) && !add(w.text) {
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
	ws := entityWords(e)
	if len(ws) == 2 {
		if nb := strings.ToLower(ws[1].text); nb == "branch" || nb == "branches" {
			return true
		}
	}
	for _, w := range ws {
		if isEntityWord(w.text, false) {
			return true
		}
	}
	return false
}

// pairFirsts are the first words of the two-word known names ("go" of
// "go vet"): a word that is none of them starts no known pair, and
// lower-casing "a b" lower-cases a and b apart (the space stays), so the
// pair need not be built.
var pairFirsts = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for name := range knownNames() {
		if first, rest, ok := strings.Cut(name, " "); ok && !strings.Contains(rest, " ") {
			out[first] = true
		}
	}
	return out
})

type entityWord struct {
	text    string
	initial bool // first word of a sentence (or of the text)
}

// entityWords splits s at white space and trims the punctuation around
// each word, marking the words that open a sentence.
func entityWords(s string) []entityWord {
	fields := strings.Fields(s)
	out := make([]entityWord, 0, len(fields))
	initial := true
	for _, f := range fields {
		w := strings.TrimFunc(f, func(r rune) bool { return strings.ContainsRune(`()[]{}<>,;:!?"'*`, r) })
		w = strings.TrimRight(w, ".")
		if strings.HasPrefix(w, "'") || strings.HasSuffix(w, "'s") {
			w = strings.TrimSuffix(strings.TrimPrefix(w, "'"), "'s")
		}
		if w != "" {
			out = append(out, entityWord{text: w, initial: initial})
		}
		last, _ := utf8.DecodeLastRuneInString(f)
		initial = last == '.' || last == '!' || last == '?' || last == ':'
	}
	return out
}

// isEntityWord reports whether one word names a thing: a known name or
// the shape of one (see [Entities]); a capitalised word counts only when
// it does not open a sentence.
func isEntityWord(w string, initial bool) bool {
	lw := strings.ToLower(w)
	if len(w) < 2 || entityStop()[lw] {
		return knownNames()[lw] && !entityStop()[lw]
	}
	if knownNames()[lw] {
		return true
	}
	if strings.ContainsAny(w, "/.-@_") { // each shape below needs one of them: most words skip the regexps
		p := entityPatterns()
		if p.path.MatchString(w) || p.file.MatchString(w) || p.flag.MatchString(w) || p.scoped.MatchString(w) ||
			p.dotted.MatchString(w) || p.snake.MatchString(w) {
			return true
		}
	}
	if strings.ContainsAny(w, "0123456789") { // python3, tool07; not 2MB, v1.2, 60s
		return hasLetter(w) && !entityPatterns().number.MatchString(lw)
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

func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

type entityRes struct {
	backquote, path, file, flag, scoped, dotted, snake, number *regexp.Regexp
}

// entityPatterns are compiled on first use, not at process start.
var entityPatterns = sync.OnceValue(func() *entityRes {
	return &entityRes{
		backquote: regexp.MustCompile("`([^`\n]{1,120})`"),
		path:      regexp.MustCompile(`^(~|\.{1,2})?/?[\w.@-]+/[\w./@-]*$`),
		file:      regexp.MustCompile(`^[\w-]*\.(go|mod|sum|py|pyi|rs|toml|ts|tsx|js|jsx|mjs|cjs|json|jsonc|ya?ml|md|sh|bash|zsh|rb|ex|exs|heex|eex|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|php|sql|tf|tfvars|tfstate|lock|env|ini|cfg|conf|txt|csv|html|css|scss|vue|svelte|proto|graphql|dockerfile|xml|gradle|ipynb)$|^\.[\w.-]+$`),
		flag:      regexp.MustCompile(`^--?[a-zA-Z][\w-]*(=\S+)?$`),
		scoped:    regexp.MustCompile(`^@[\w.-]+(/[\w.-]+)?$`),
		dotted:    regexp.MustCompile(`^[a-zA-Z]\w*(\.[a-zA-Z]\w*)+$`),
		snake:     regexp.MustCompile(`^[a-zA-Z]+(_[a-zA-Z0-9]+)+$`),
		number:    regexp.MustCompile(`^(\d+(st|nd|rd|th|s|x|k|m|mb|gb|kb|ms|px|%)?|v?\d+(\.\d+)*)$`),
	}
})
