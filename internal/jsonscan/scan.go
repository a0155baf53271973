// Package jsonscan holds the byte-level primitives shared by the
// hand-written JSON fast paths (coach/wsapi's buffer:update frames,
// mcphttp's tools/call requests, ...): skipping whitespace, finding and
// decoding a string, checking a number or a literal, and skipping or
// validating any value under a depth limit.
//
// Every function follows encoding/json's grammar exactly (RFC 8259: the
// four whitespace bytes, the eight one-letter escapes and \uXXXX, no
// leading zeros, no bare control characters in strings) and decodes
// strings to exactly what encoding/json produces: escapes resolved, a lone
// or malformed surrogate escape and each byte of invalid UTF-8 replaced by
// U+FFFD. A function that cannot read its input returns -1 (or false);
// it never panics on any input and never allocates except to return a
// decoded string. Fuzz tests (FuzzSkip, FuzzString, FuzzNumber) hold the
// package to encoding/json: whatever it accepts, encoding/json accepts with
// the same value; whatever it rejects, encoding/json rejects (or it nests
// deeper than the caller's limit).
//
// The functions take the text and an index and return the index after
// what they read, so that a caller's own cursor type (and its schema or
// shape logic) stays in the caller. Where a fast path needs other rules
// than encoding/json's (learn/transcript's line validator keeps gjson's),
// it keeps them itself and says so.
package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// Space returns the index of the first byte at or after i that is not
// JSON whitespace (space, tab, newline, carriage return), len(b) if none.
// Indentation comes in runs of spaces, counted eight bytes at a time.
func Space(b []byte, i int) int {
	for i < len(b) {
		c := b[i]
		switch {
		case c > ' ':
		case c == ' ' && i+8 <= len(b):
			// The first byte is a space, so this skips 1 to 8.
			i += bits.TrailingZeros64(binary.LittleEndian.Uint64(b[i:])^spaces8) / 8
			continue
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
			continue
		}
		break
	}
	return i
}

const (
	spaces8 = 0x2020202020202020
	ones8   = 0x0101010101010101
	highs8  = 0x8080808080808080
)

// Literal returns the index after word (true, false or null) when b holds
// it at i, -1 otherwise.
func Literal(b []byte, i int, word string) int {
	if i < 0 || len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// Number returns the index after the JSON number at i and whether it is an
// integer (no fraction, no exponent); end is -1 when b holds no valid
// number at i. Like encoding/json, it reads the longest number there: the
// caller checks what follows.
func Number(b []byte, i int) (end int, integer bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i, integer = j, false
		} else {
			return -1, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return -1, false
		}
		i, integer = j, false
	}
	return i, integer
}

// digits returns the index after the run of decimal digits at i.
func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// Skip returns the index after the JSON value at i (leading whitespace
// skipped), having checked it completely: strings' escapes, numbers,
// literals, and containers nested at most maxDepth levels below this one
// (depth counts the levels already entered). It returns -1 for anything
// invalid or nested deeper. Invalid UTF-8 inside strings is accepted, as
// encoding/json accepts it.
func Skip(b []byte, i, depth, maxDepth int) int {
	i = Space(b, i)
	if i >= len(b) || depth > maxDepth {
		return -1
	}
	switch c := b[i]; c {
	case '{', '[':
		return skipContainer(b, i, depth, maxDepth)
	case '"':
		end, _ := StringEnd(b, i)
		return end
	case 't':
		return Literal(b, i, "true")
	case 'f':
		return Literal(b, i, "false")
	case 'n':
		return Literal(b, i, "null")
	}
	end, _ := Number(b, i)
	return end
}

// skipContainer skips the object or array whose opening byte is at i.
func skipContainer(b []byte, i, depth, maxDepth int) int {
	end := byte(']')
	if b[i] == '{' {
		end = '}'
	}
	object := end == '}'
	i = Space(b, i+1)
	if i < len(b) && b[i] == end {
		return i + 1
	}
	for {
		if object {
			if i = Space(b, i); i >= len(b) || b[i] != '"' {
				return -1
			}
			if i, _ = StringEnd(b, i); i < 0 {
				return -1
			}
			if i = Space(b, i); i >= len(b) || b[i] != ':' {
				return -1
			}
			i++
		}
		if i = Skip(b, i, depth+1, maxDepth); i < 0 {
			return -1
		}
		if i = Space(b, i); i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i++
		case end:
			return i + 1
		default:
			return -1
		}
	}
}

// Valid reports whether b is exactly one JSON value (with surrounding
// whitespace) nested at most maxDepth levels deep, as json.Valid would
// for maxDepth up to encoding/json's own limit.
func Valid(b []byte, maxDepth int) bool {
	i := Skip(b, 0, 0, maxDepth)
	return i >= 0 && Space(b, i) == len(b)
}
