package wsapi

import "github.com/paige-dev/paige/internal/jsonscan"

// scanner is a cursor over one JSON text, for the fast decoding of
// buffer:update frames (fastframe.go). It is hand-written because no
// maintained library decodes straight into our struct with encoding/json's
// exact rules (invalid UTF-8 and lone surrogates become U+FFFD, keys match
// case-insensitively, unknown fields are skipped). Every method reports
// false for anything it does not handle exactly as encoding/json does,
// including every malformed input; the caller then gives up and the frame
// goes through encoding/json, which produces the answer and the error text.
// The byte-level work (whitespace, strings, numbers, skipping) is
// internal/jsonscan's; this file keeps what is particular to frames.
type scanner struct {
	b []byte
	i int
}

// space skips JSON whitespace (not the wider set bytes.TrimSpace removes).
func (s *scanner) space() { s.i = jsonscan.Space(s.b, s.i) }

// peek returns the byte at the cursor, 0 at the end.
func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// consume skips whitespace and then c, and reports whether c was there.
func (s *scanner) consume(c byte) bool {
	s.space()
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// next consumes the ',' or '}' (or ']') after a member and reports whether
// another member follows; ok is false for anything else.
func (s *scanner) next(end byte) (more, ok bool) {
	s.space()
	switch s.peek() {
	case ',':
		s.i++
		return true, true
	case end:
		s.i++
		return false, true
	}
	return false, false
}

// key reads an object key and the ':' after it. name is the key's bytes,
// only for keys of printable ASCII without escapes (ok is false for any
// other key, which encoding/json may fold onto a field name in ways this
// scanner does not reproduce).
func (s *scanner) key() (name []byte, ok bool) {
	s.space()
	if s.peek() != '"' {
		return nil, false
	}
	start := s.i + 1
	i := jsonscan.PlainRun(s.b, start)
	if i >= len(s.b) || s.b[i] != '"' {
		return nil, false
	}
	s.i = i + 1
	if !s.consume(':') {
		return nil, false
	}
	s.space()
	return s.b[start:i], true
}

// lookup returns the index of name in names, -1 when it matches none, and
// -2 when it matches one only case-insensitively (encoding/json would
// decode it into that field: the caller gives up).
func lookup(name []byte, names []string) int {
	for i, n := range names {
		if string(name) == n {
			return i
		}
	}
	for _, n := range names {
		if asciiEqualFold(name, n) {
			return -2
		}
	}
	return -1
}

// asciiEqualFold reports whether ASCII a and b are equal ignoring case.
func asciiEqualFold(a []byte, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y || (x < 'a' || x > 'z') && a[i] != b[i] {
			return false
		}
	}
	return true
}

// str decodes the string at the cursor as encoding/json does: escapes
// resolved, a lone or malformed surrogate escape and each byte of invalid
// UTF-8 replaced by U+FFFD (jsonscan.String).
func (s *scanner) str() (string, bool) {
	str, end := jsonscan.String(s.b, s.i)
	if end < 0 {
		return "", false
	}
	s.i = end
	return str, true
}
