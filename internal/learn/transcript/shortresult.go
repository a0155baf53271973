package transcript

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// shortResult is the fast path of a tool result held in one JSON string
// literal raw (valid JSON): it answers truncate(Clean(prefixString(raw,
// budget)), max), decoding only the first few hundred bytes, and ok false
// when it cannot be sure, for the caller to take the long way.
//
// It decodes a prefix P of what prefixString decodes: the cut is at most
// budget bytes in, on an escape boundary, not right after a \u escape (the
// second half of a surrogate pair may follow) and before a rune start (no
// rune is split). When P holds no '<' or '[' (Clean's wrappers and
// interruption markers all start there, so whatever Clean removes or joins
// lies after P), no run of three newlines (the only thing Clean changes
// before its first '<' or '['), and a rune that is not a space at rune
// index max-1 or later once its leading spaces are trimmed (so trimming the
// end of the longer text cannot reach the first max runes), the answer is
// the first max runes of P without its leading spaces.
func shortResult(raw string, budget, max int) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	limit := min(2*max+64, budget)
	if len(body) <= limit {
		return "", false // short: the long way costs no more
	}
	cut, afterU := 0, false
	for cut < limit {
		if body[cut] == '\\' {
			if cut+1 >= len(body) {
				return "", false
			}
			afterU = body[cut+1] == 'u'
			cut += 2
			if afterU {
				cut += 4
			}
			continue
		}
		afterU = false
		cut++
	}
	if afterU || cut >= len(body) || cut >= budget || !utf8.RuneStart(body[cut]) {
		return "", false
	}
	p := stringBody(body[:cut])
	if strings.ContainsAny(p, "<[") || strings.Contains(p, "\n\n\n") {
		return "", false
	}
	t := strings.TrimLeftFunc(p, unicode.IsSpace)
	i, n, solid := 0, 0, false
	for i < len(t) {
		r, size := utf8.DecodeRuneInString(t[i:])
		if n >= max-1 && !unicode.IsSpace(r) {
			solid = true
			break
		}
		i += size
		n++
	}
	if !solid {
		return "", false
	}
	return truncate(t, max), true
}
