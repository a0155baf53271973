package transcript

import (
	"encoding/binary"
	"math/bits"
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

// asciiResult is [shortResult] in one pass for a literal whose beginning
// has no \u escape, no invalid UTF-8 and no space outside ASCII: it
// decodes, trims the leading spaces and checks shortResult's conditions
// character by character, stopping at the first one that is not a space
// once max-1 are kept (every kept rune is whole, so the longer text
// decodes them alike). ok is false (take shortResult's way) at anything
// else: a \u escape, invalid UTF-8, a space outside ASCII, a '<' or '[',
// three newlines in a row, or no such character within shortResult's
// limit. The answer is appended to dst.
func asciiResult(dst []byte, raw string, budget, max int) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || max < 1 {
		return dst, false
	}
	body := raw[1 : len(raw)-1]
	limit := min(2*max+64, budget-1, len(body)-1)
	kept, newlines := 0, 0
	for i := 0; i < limit; i++ {
		if kept > 0 { // a run of plain characters, all kept, none at max-1 or later
			if run := plainRun(body, i, min(limit, i+max-1-kept)); run > i {
				dst, kept, newlines, i = append(dst, body[i:run]...), kept+run-i, 0, run
			}
			if i == limit {
				break
			}
		}
		c := body[i]
		if c == '\\' {
			if i+1 >= limit {
				return dst, false // the cut must not pass the limit
			}
			i++
			var ok bool
			if c, ok = simpleEscape(body[i]); !ok {
				return dst, false
			}
		}
		if c >= 0x80 { // a whole rune that is not a space, or the other way
			r, size := utf8.DecodeRuneInString(body[i:])
			if r == utf8.RuneError || unicode.IsSpace(r) || i+size > limit {
				return dst, false
			}
			if kept < max {
				dst = append(dst, body[i:i+size]...)
			}
			if kept >= max-1 {
				return dst, true
			}
			kept++
			newlines = 0
			i += size - 1
			continue
		}
		space, ok := asciiChar(c, &newlines)
		if !ok {
			return dst, false
		}
		if kept == 0 && space {
			continue
		}
		if kept >= max-1 && !space {
			if kept == max-1 {
				dst = append(dst, c)
			}
			return dst, true
		}
		if kept < max {
			dst = append(dst, c)
		}
		kept++
	}
	return dst, false
}

// plainRun returns the index of the first byte of s[i:stop] that
// asciiResult cannot keep as it is (not printable ASCII, a '<', a '[' or a
// backslash), or stop; eight bytes at a time: the lowest lane flagged is
// the first such byte (no borrow reaches a lane before it).
func plainRun(s string, i, stop int) int {
	for ; i+8 <= stop; i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		m := ((x - 0x20*lanes01) | (x ^ '<'*lanes01 - lanes01) | (x ^ '['*lanes01 - lanes01) | (x ^ '\\'*lanes01 - lanes01)) &^ x
		if m = (m | x) & lanes80; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < stop; i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '<' || c == '[' || c == '\\' {
			return i
		}
	}
	return i
}

// simpleEscape is the byte the escape \e stands for; ok is false for \u
// (and for what is not an escape).
func simpleEscape(e byte) (c byte, ok bool) {
	switch e {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case 'f':
		return '\f', true
	case 'b':
		return '\b', true
	case '"', '\\', '/':
		return e, true
	}
	return 0, false
}

// asciiChar tells whether the ASCII character c, decoded, is a space, and
// ok false when asciiResult must step aside: a '<' or '[', a control
// character Clean might treat otherwise, or the third newline of a run
// (newlines counts the run).
func asciiChar(c byte, newlines *int) (space, ok bool) {
	switch {
	case c == '<' || c == '[' || c < ' ' && c != '\n' && c != '\t' && c != '\r' && c != '\f' && c != '\v' && c != '\b':
		return false, false
	case c == '\n':
		if *newlines++; *newlines == 3 {
			return false, false
		}
	default:
		*newlines = 0
	}
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v', true
}
