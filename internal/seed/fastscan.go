package seed

import (
	"bytes"

	"github.com/paige-dev/paige/internal/jsonscan"
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

// ws skips JSON whitespace (jsonscan.Space).
func (s *scanner) ws() { s.i = jsonscan.Space(s.b, s.i) }

// str scans the string whose opening quote is at s.i and returns its raw
// content (escapes undecoded) and whether it has an escape. Escapes are
// checked the way encoding/json checks them (jsonscan.StringEnd); raw
// control characters and a missing closing quote are syntax errors.
func (s *scanner) str() (raw []byte, escaped, ok bool) {
	start := s.i
	// The common string, without escapes, in one call.
	if i := jsonscan.Special(s.b, start+1); i < len(s.b) && s.b[i] == '"' {
		s.i = i + 1
		return s.b[start+1 : i], false, true
	}
	end, escaped := jsonscan.StringEnd(s.b, start)
	if end < 0 {
		return nil, false, s.syntax()
	}
	s.i = end
	return s.b[start+1 : end-1], escaped, true
}

// number scans the number at s.i. exact is false when it has an exponent
// or more than 300 integer digits, the numbers whose conversion to float64
// (the schema's number check) the scanner does not judge.
func (s *scanner) number() (exact, ok bool) {
	end, integer := jsonscan.Number(s.b, s.i)
	if end < 0 {
		return false, s.syntax()
	}
	lit := s.b[s.i:end]
	s.i = end
	if len(lit) > 0 && lit[0] == '-' {
		lit = lit[1:]
	}
	if !integer {
		if bytes.ContainsAny(lit, "eE") {
			return false, true
		}
		lit = lit[:bytes.IndexByte(lit, '.')]
	}
	return len(lit) <= 300, true
}

// literal scans true, false or null at s.i.
func (s *scanner) literal(word string) bool {
	end := jsonscan.Literal(s.b, s.i, word)
	if end < 0 {
		return s.syntax()
	}
	s.i = end
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
