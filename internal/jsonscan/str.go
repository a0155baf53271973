package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// plain[c] reports whether byte c stands for itself inside a JSON string:
// printable ASCII other than the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Plain reports whether byte c stands for itself inside a JSON string and
// needs no decoding: printable ASCII other than the quote and the backslash.
func Plain(c byte) bool { return plain[c] }

// PlainRun returns the index of the first byte at or after i that is not
// Plain, len(b) if there is none. It tests eight bytes at a time: a word
// has no byte below 0x20, no quote, no backslash and no byte from 0x80
// when none of these bit tricks sets a high bit.
func PlainRun(b []byte, i int) int {
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

// ClosingQuote returns the index of the quote closing the string that
// contains index i (the first quote at or after i preceded by an even
// number of backslashes), or -1 when there is none. It does not check the
// string's contents: see StringEnd and Unescape for that.
func ClosingQuote(b []byte, i int) int {
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

// StringEnd returns the index after the string literal whose opening quote
// is at i, having checked it as encoding/json does (escapes well formed, no
// control characters; invalid UTF-8 is accepted), and whether it holds an
// escape; end is -1 when b holds no valid string literal at i.
func StringEnd(b []byte, i int) (end int, escaped bool) {
	if i < 0 || i >= len(b) || b[i] != '"' {
		return -1, false
	}
	for i++; ; {
		i = Special(b, i)
		if i >= len(b) || b[i] < 0x20 {
			return -1, false
		}
		if b[i] == '"' {
			return i + 1, escaped
		}
		escaped = true
		n := escapeLen(b[i:])
		if n == 0 {
			return -1, false
		}
		i += n
	}
}

// Special returns the index of the first byte at or after i that is '"',
// '\\' or a control character, or len(b). It tests eight bytes at a time:
// for each pattern, (x - ones) &^ x & highs flags the zero bytes of x
// exactly up to the first one (a borrow only runs towards higher bytes).
func Special(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q := x ^ 0x2222222222222222
		bs := x ^ 0x5c5c5c5c5c5c5c5c
		m := (q-ones8)&^q | (bs-ones8)&^bs | (x-spaces8)&^x
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

// escapeLen returns the length of the escape at the start of b (which
// starts with a backslash), 0 when it is malformed.
func escapeLen(b []byte) int {
	if len(b) >= 2 && unescaped[b[1]] != 0 {
		return 2
	}
	if len(b) >= 6 && b[1] == 'u' && hex4(b[2:]) >= 0 {
		return 6
	}
	return 0
}

// String decodes the string literal whose opening quote is at i and
// returns it with the index after its closing quote; end is -1 when b
// holds no valid string literal at i. A string without escapes or
// non-ASCII bytes costs one copy; any other, one decoding into a buffer the
// returned string then owns.
func String(b []byte, i int) (s string, end int) {
	if i < 0 || i >= len(b) || b[i] != '"' {
		return "", -1
	}
	start := i + 1
	j := PlainRun(b, start)
	if j < len(b) && b[j] == '"' {
		return string(b[start:j]), j + 1
	}
	q := ClosingQuote(b, j)
	if q < 0 {
		return "", -1
	}
	// Decoded, the string is at most as long as its JSON form unless it
	// holds invalid UTF-8 (each bad byte becomes 3); append grows it then.
	buf := make([]byte, 0, q-start)
	buf = append(buf, b[start:j]...)
	buf, ok := Unescape(buf, b[j:q])
	if !ok {
		return "", -1
	}
	// buf is never written again: the string shares its memory, as
	// strings.Builder's does (a second copy of a large string would cost
	// as much as the decoding).
	return unsafe.String(unsafe.SliceData(buf), len(buf)), q + 1
}

// Unescape appends the decoded form of the string body b (between the
// quotes, without them) to dst and reports whether b is a valid JSON
// string body: escapes resolved, a lone or malformed surrogate escape and
// each byte of invalid UTF-8 replaced by U+FFFD, as encoding/json does.
//
// It goes from backslash to backslash (bytes.IndexByte). A body of
// printable ASCII (printableASCII: a word at a time, without a branch) has
// its runs between escapes appended whole, and its quotes counted once at
// the end: each must have been an escaped one. Any other body's runs go
// through unescapeRun byte by byte. (Issue 15: the lines of a buffer, each
// ended by a \n escape, cost about 370 instructions each byte by byte.)
func Unescape(dst, b []byte) ([]byte, bool) {
	ascii := printableASCII(b)
	escapedQuotes := 0
	for i := 0; i < len(b); {
		j := len(b)
		if k := bytes.IndexByte(b[i:], '\\'); k >= 0 {
			j = i + k
		}
		if ascii {
			dst = append(dst, b[i:j]...)
		} else {
			var ok bool
			if dst, ok = unescapeRun(dst, b[i:j]); !ok {
				return dst, false
			}
		}
		if i = j; i == len(b) {
			break
		}
		if i+1 < len(b) && unescaped[b[i+1]] != 0 {
			if b[i+1] == '"' {
				escapedQuotes++
			}
			dst = append(dst, unescaped[b[i+1]])
			i += 2
			continue
		}
		var n int
		if dst, n = escapeU(dst, b[i:]); n == 0 {
			return dst, false
		}
		i += n
	}
	return dst, !ascii || bytes.Count(b, []byte{'"'}) == escapedQuotes
}

// printableASCII reports whether every byte of b is from 0x20 to 0x7f. It
// ORs, for each word, the bits that flag a byte from 0x80 or below 0x20,
// and tests them once: a flag's borrow only reaches the bytes after a
// flagged one, so a word without a flagged byte sets none.
func printableASCII(b []byte) bool {
	if len(b) < 8 {
		for _, c := range b {
			if c < 0x20 || c >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	flags := func(p []byte) uint64 {
		w := binary.LittleEndian.Uint64(p)
		return w | (w - spaces8)
	}
	acc := flags(b[len(b)-8:]) // the last word, maybe overlapping
	p := b
	for ; len(p) >= 32; p = p[32:] {
		acc |= flags(p[0:8]) | flags(p[8:16]) | flags(p[16:24]) | flags(p[24:32])
	}
	for ; len(p) >= 8; p = p[8:] {
		acc |= flags(p)
	}
	return acc&highs8 == 0
}

// unescapeRun appends run, which holds no backslash, decoded: each byte
// of invalid UTF-8 replaced by U+FFFD; false for a control character or a
// quote.
func unescapeRun(dst, run []byte) ([]byte, bool) {
	for i := 0; i < len(run); {
		switch c := run[i]; {
		case plain[c]:
			j := PlainRun(run, i+1)
			dst = append(dst, run[i:j]...)
			i = j
		case c < utf8.RuneSelf: // a control character, a quote or a backslash
			return dst, false
		default:
			r, size := utf8.DecodeRune(run[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, unicode.ReplacementChar)
			} else {
				dst = append(dst, run[i:i+size]...)
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
