package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// unescapeByteByByte is Unescape as it was before it went from backslash
// to backslash: the oracle of FuzzUnescape.
func unescapeByteByByte(dst, b []byte) ([]byte, bool) {
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case plain[c]:
			j := PlainRun(b, i+1)
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

// unescapeSeeds are string bodies (without their quotes) for the edge
// cases of Unescape: quotes escaped or bare at every place of a word,
// control characters and bytes from 0x80 next to printable ones (the
// borrows of the word tests), runs shorter and longer than a word.
var unescapeSeeds = []string{
	``, `a`, `abcdefg`, `abcdefgh`, `abcdefghi`, `a\"b`, `a"b`, `abcdefgh"`, `"abcdefgh`,
	`abcdefghijklmnopqrstuvwxyz0123456789"`, `abcdefghijklmnopqrstuvwxyz012345\"6789`,
	"abc\x1f defghijk", "\x00 \x20\x20\x20\x20\x20\x20\x20", "abcdefg\x7f", "abcdefg\x80", "\xff abcdefghijkl",
	`\\`, `\\"`, `\\\"`, `\`, `abc\`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\u12`, `\x`, `\"\"\"`,
	strings.Repeat(`const value = compute(input) + 1; // line of code\n`, 20),
	strings.Repeat("é \\n", 20), strings.Repeat(`\"q\" `, 20) + `"`,
}

// FuzzUnescape: Unescape accepts a string body exactly when the byte by
// byte decoder it replaced does, and when encoding/json decodes the body
// in quotes, with the same result, whatever dst already holds.
func FuzzUnescape(f *testing.F) {
	for _, s := range unescapeSeeds {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, body []byte, prefix uint8) {
		dst := bytes.Repeat([]byte{'p'}, int(prefix%8))
		got, ok := Unescape(bytes.Clone(dst), body)
		want, wantOK := unescapeByteByByte(bytes.Clone(dst), body)
		if ok != wantOK || ok && !bytes.Equal(got, want) {
			t.Fatalf("Unescape(%q) = %q, %v; byte by byte %q, %v", body, got, ok, want, wantOK)
		}
		var s string
		jsonOK := json.Unmarshal(append(append([]byte{'"'}, body...), '"'), &s) == nil
		if ok != jsonOK || ok && string(got[len(dst):]) != s {
			t.Fatalf("Unescape(%q) = %q, %v; encoding/json %q, %v", body, got, ok, s, jsonOK)
		}
	})
}

// TestUnescapeEdges pins what FuzzUnescape starts from.
func TestUnescapeEdges(t *testing.T) {
	for _, c := range []struct {
		body, want string
		ok         bool
	}{
		{`abcdefghijklmnopqrstuvwxyz0123456789\n`, "abcdefghijklmnopqrstuvwxyz0123456789\n", true},
		{`abcdefghijklmnopqrstuvwxyz0123456789"`, "", false}, // a bare quote in a printable body
		{`a\"bcdefghijklmnopqrstuvwxyz\"`, `a"bcdefghijklmnopqrstuvwxyz"`, true},
		{"abcdefghijklmnopqrstuvwxyz\x1f", "", false},
		{"abcdefghijklmnop\xffq\\n\"", "", false}, // not printable: checked run by run
		{"abcdefghijklmnop\xffq\\n", "abcdefghijklmnop\uFFFDq\n", true},
		{`abcdefghijklmnop\`, "", false},
	} {
		got, ok := Unescape(nil, []byte(c.body))
		if ok != c.ok || ok && string(got) != c.want {
			t.Errorf("Unescape(%q) = %q, %v; want %q, %v", c.body, got, ok, c.want, c.ok)
		}
	}
}
