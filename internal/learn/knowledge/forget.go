package knowledge

import (
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// forgetFiller are the words a forget request may use without naming
// anything: "@forget it", "forget that one about this" name nothing.
var forgetFiller = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the it its it's this that these those them they one ones thing things
		stuff about of on in at to for from with and or all any every everything what which entry entries
		rule rules please me my you your i we our us last previous above again is are was be`) {
		m[w] = true
	}
	return m
}()

// NamedWords returns the words of a forget request that name something:
// lower-cased words of at least two characters that are not filler
// ("it", "that", "the", "about", ...). A request without named words names
// nothing.
func NamedWords(query string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range tokens(query) {
		if len(w) >= 2 && !forgetFiller[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Named returns the entries of entries that a forget request names: every
// named word of the request ([NamedWords]) is a whole word of the entry's
// content or one of its entities. A request that names nothing ("@forget
// it") matches no entry; words are never matched inside other words ("it"
// does not match "commit").
func Named(entries []learn.Entry, query string) []learn.Entry {
	named := NamedWords(query)
	if len(named) == 0 {
		return nil
	}
	var out []learn.Entry
	for _, e := range entries {
		have := map[string]bool{}
		for _, w := range tokens(e.Content + " " + strings.Join(e.Entities, " ")) {
			have[w] = true
		}
		all := true
		for _, w := range named {
			if !have[w] {
				all = false
				break
			}
		}
		if all {
			out = append(out, e)
		}
	}
	return out
}

// tokens splits s into lower-cased words at characters other than letters,
// digits, '_', '-', '.' and '/' (so "go.mod", "pre-commit" and
// "cmd/paige" stay whole); trailing dots are dropped.
func tokens(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || r == '/' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
	for i, w := range f {
		f[i] = strings.Trim(w, ".-/")
	}
	return f
}
