package seed

import (
	"encoding/binary"
	"math/bits"
)

// verdict is what [scanSeed] concluded about its input.
type verdict uint8

const (
	// verdictValid: encoding/json decodes the input and [Validate]
	// accepts the value, with exactly the warnings scanSeed returns.
	verdictValid verdict = iota
	// verdictInvalid: encoding/json rejects the input or Validate finds
	// at least one error.
	verdictInvalid
	// verdictUnsure: the input has something the scanner does not judge
	// (see scanSeed); the answer is left to the decoding path.
	verdictUnsure
)

// scanner is scanSeed's cursor. bad records a schema problem found so far;
// stop ends the scan with a verdict (a JSON syntax error, which the
// decoding path rejects whatever the schema says, or something unusual).
type scanner struct {
	b       []byte
	i       int
	bad     bool
	stop    verdict // verdictValid while the scan goes on
	unknown [][]byte
}

// halt ends the scan with v (the first halt wins) and returns false.
func (s *scanner) halt(v verdict) bool {
	if s.stop == verdictValid {
		s.stop = v
	}
	return false
}

// syntax ends the scan: the input is not JSON encoding/json accepts.
func (s *scanner) syntax() bool { return s.halt(verdictInvalid) }

// unsure ends the scan: the decoding path must judge the input.
func (s *scanner) unsure() bool { return s.halt(verdictUnsure) }

// ws skips JSON whitespace. Indentation comes in runs of spaces, counted
// eight bytes at a time.
func (s *scanner) ws() {
	b, i := s.b, s.i
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
	s.i = i
}

const (
	spaces8 = 0x2020202020202020
	ones8   = 0x0101010101010101
	highs8  = 0x8080808080808080
)

// special returns the index of the first byte at or after i that is '"',
// '\\' or a control character, or len(b). It tests eight bytes at a time:
// for each pattern, (x - ones) &^ x & highs flags the zero bytes of x
// exactly up to the first one (a borrow only runs towards higher bytes).
func special(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q := x ^ 0x2222222222222222
		bs := x ^ 0x5c5c5c5c5c5c5c5c
		m := (q-ones8)&^q | (bs-ones8)&^bs | (x-0x2020202020202020)&^x
		if m &= highs8; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// str scans the string whose opening quote is at s.i and returns its raw
// content (escapes undecoded) and whether it has an escape. Escapes are
// checked the way encoding/json checks them; raw control characters and
// a missing closing quote are syntax errors.
func (s *scanner) str() (raw []byte, escaped, ok bool) {
	start := s.i + 1
	i := start
	for {
		i = special(s.b, i)
		if i >= len(s.b) || s.b[i] < 0x20 {
			return nil, false, s.syntax()
		}
		if s.b[i] == '"' {
			s.i = i + 1
			return s.b[start:i], escaped, true
		}
		escaped = true
		if i+1 >= len(s.b) {
			return nil, false, s.syntax()
		}
		switch s.b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(s.b) || !hex4(s.b[i+2:i+6]) {
				return nil, false, s.syntax()
			}
			i += 6
		default:
			return nil, false, s.syntax()
		}
	}
}

func hex4(b []byte) bool {
	for _, c := range b[:4] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// number scans the number at s.i. exact is false when it has an exponent
// or more than 300 integer digits, the numbers whose conversion to float64
// (the schema's number check) the scanner does not judge.
func (s *scanner) number() (exact, ok bool) {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	start := i
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return false, s.syntax()
	}
	exact = i-start <= 300
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			return false, s.syntax()
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		exact = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return false, s.syntax()
		}
		i = j
	}
	s.i = i
	return exact, true
}

// digits returns the index after the run of decimal digits at i.
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// literal scans true, false or null at s.i.
func (s *scanner) literal(word string) bool {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return s.syntax()
	}
	s.i += len(word)
	return true
}

// skip scans any JSON value at s.i, nested depth levels deep; deeper than
// maxFastDepth is left to the decoding path.
func (s *scanner) skip(depth int) bool {
	if depth > maxFastDepth {
		return s.unsure()
	}
	if s.i >= len(s.b) {
		return s.syntax()
	}
	switch s.b[s.i] {
	case '{':
		return s.members(depth, func([]byte) bool { return s.skip(depth + 1) })
	case '[':
		return s.elements(func() bool { return s.skip(depth + 1) })
	case '"':
		_, _, ok := s.str()
		return ok
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	_, ok := s.number()
	return ok
}

// members scans the object at s.i, calling member for each key with s.i
// at the key's value; member must scan the value. A key with an escape is
// left to the decoding path (it may spell a known key).
func (s *scanner) members(depth int, member func(key []byte) bool) bool {
	s.i++ // '{'
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return true
	}
	for {
		key, ok := s.key()
		if !ok || !member(key) {
			return false
		}
		if !s.next('}') {
			return s.stop == verdictValid
		}
	}
}

// key scans an object's key at s.i and the colon after it, leaving s.i at
// the value.
func (s *scanner) key() ([]byte, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, s.syntax()
	}
	key, escaped, ok := s.str()
	if !ok {
		return nil, false
	}
	if escaped {
		return nil, s.unsure()
	}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != ':' {
		return nil, s.syntax()
	}
	s.i++
	s.ws()
	return key, true
}

// elements scans the array at s.i, calling element with s.i at each
// element; element must scan it.
func (s *scanner) elements(element func() bool) bool {
	s.i++ // '['
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return true
	}
	for {
		if !element() {
			return false
		}
		if !s.next(']') {
			return s.stop == verdictValid
		}
	}
}

// next consumes the separator after a member or element: a comma
// (reporting true: another follows) or the closing byte (false, with
// s.stop unchanged).
func (s *scanner) next(closing byte) bool {
	s.ws()
	if s.i >= len(s.b) {
		return s.syntax()
	}
	switch s.b[s.i] {
	case ',':
		s.i++
		s.ws()
		return true
	case closing:
		s.i++
		return false
	}
	return s.syntax()
}
