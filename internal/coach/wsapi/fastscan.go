package wsapi

import (
	"bytes"
	"encoding/binary"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// scanner is a cursor over one JSON text, for the fast decoding of
// buffer:update frames (fastframe.go). It is hand-written because no
// maintained library decodes straight into our struct with encoding/json's
// exact rules (invalid UTF-8 and lone surrogates become U+FFFD, keys match
// case-insensitively, unknown fields are skipped). Every method reports
// false for anything it does not handle exactly as encoding/json does,
// including every malformed input; the caller then gives up and the frame
// goes through encoding/json, which produces the answer and the error text.
type scanner struct {
	b []byte
	i int
}

// maxScanDepth bounds the nesting the scanner follows (encoding/json's own
// limit, 10,000, is left to encoding/json).
const maxScanDepth = 64

// plain[c] reports whether byte c stands for itself inside a JSON string:
// printable ASCII other than the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// space skips JSON whitespace (not the wider set bytes.TrimSpace removes).
func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

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
	i := start
	for i < len(s.b) && plain[s.b[i]] {
		i++
	}
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
// UTF-8 replaced by U+FFFD.
func (s *scanner) str() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	start := s.i + 1
	i := plainRun(s.b, start)
	if i < len(s.b) && s.b[i] == '"' {
		s.i = i + 1
		return string(s.b[start:i]), true
	}
	end := stringEnd(s.b, i)
	if end < 0 {
		return "", false
	}
	// Decoded, the string is at most as long as its JSON form unless it
	// holds invalid UTF-8 (each bad byte becomes 3); append grows it then.
	buf := make([]byte, 0, end-start)
	buf = append(buf, s.b[start:i]...)
	buf, ok := unescape(buf, s.b[i:end])
	if !ok {
		return "", false
	}
	s.i = end + 1
	// buf is never written again: the string shares its memory, as
	// strings.Builder's does (a second copy of a whole file would cost as
	// much as the decoding).
	return unsafe.String(unsafe.SliceData(buf), len(buf)), true
}

// plainRun returns the index of the first byte at or after i that is not
// plain (see plain), len(b) if there is none. It tests eight bytes at a
// time: a word has no byte below 0x20, no quote, no backslash and no byte
// from 0x80 when none of these bit tricks sets a high bit.
func plainRun(b []byte, i int) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		q, bs := w^(ones*'"'), w^(ones*'\\')
		if ((w-ones*0x20)&^w|(q-ones)&^q|(bs-ones)&^bs|w)&high != 0 {
			break
		}
	}
	for i < len(b) && plain[b[i]] {
		i++
	}
	return i
}

// stringEnd returns the index of the quote closing the string that
// contains index i (the first quote preceded by an even number of
// backslashes), or -1 when there is none.
func stringEnd(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		j += i
		k := j
		for k > i && b[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j
		}
		i = j + 1
	}
}

// unescape appends the decoded form of the string body b (no closing
// quote) to dst and reports whether b is a valid JSON string body.
func unescape(dst, b []byte) ([]byte, bool) {
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case plain[c]:
			j := plainRun(b, i+1)
			dst = append(dst, b[i:j]...)
			i = j
		case c == '\\' && i+1 < len(b) && unescaped[b[i+1]] != 0:
			dst = append(dst, unescaped[b[i+1]])
			i += 2
		case c == '\\':
			var n int
			if dst, n = escapeU(dst, b[i:]); n == 0 {
				return dst, false
			}
			i += n
		case c < utf8.RuneSelf: // a control character or a bare quote
			return dst, false
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, unicode.ReplacementChar)
			} else {
				dst = append(dst, b[i:i+size]...)
			}
			i += size
		}
	}
	return dst, true
}

// unescaped maps the letter of each one-letter JSON escape to the byte it
// stands for; 0 for any other.
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escapeU appends the \uXXXX escape (a surrogate pair: two) at the start of
// b to dst and returns its length in b, 0 when it is malformed.
func escapeU(dst, b []byte) ([]byte, int) {
	if len(b) < 6 || b[1] != 'u' {
		return dst, 0
	}
	r := hex4(b[2:])
	if r < 0 {
		return dst, 0
	}
	if utf16.IsSurrogate(r) {
		r2 := rune(-1)
		if len(b) >= 8 && b[6] == '\\' && b[7] == 'u' {
			r2 = hex4(b[8:])
		}
		if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
			return utf8.AppendRune(dst, dec), 12
		}
		r = unicode.ReplacementChar
	}
	return utf8.AppendRune(dst, r), 6
}

// hex4 decodes four hex digits at the start of b, -1 if there are none.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
