package transcript

import (
	"bufio"
	"encoding/binary"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// jsonSeeds are the fixtures' lines and edge cases of the JSON grammar.
func jsonSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, name := range files {
		file, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 4<<20)
		for n := 0; sc.Scan() && n < 40; n++ {
			f.Add(sc.Text())
		}
		file.Close()
	}
	for _, s := range []string{`{}`, `[]`, ` {"a" : [1, -2.5e+3, true, false, null, "x\"y\\", {"b":{}}] } `,
		`{"a":"\u00e9\ud83d\ude00","t\u0079pe":"user","type":"assistant"}`, `{"a":"12345678\"12345678\\\\"}`,
		`{"a":"tab	in string"}`, `{"a":"\x"}`, `{"a":"\u12G4"}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":1e}`,
		`{"a":tru}`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `"abc`, `{"content":[{"type":"text","text":"hi"},{"type":"tool_result","content":"x","is_error":true}]}`,
		"{\"a\":\"\x7f\x80\xff\"}", `{"a":"1234567\u0022"}`, `nan`, `{"a":[[[[]]]]}`} {
		f.Add(s)
	}
}

// FuzzValidJSON checks that the reader's validator accepts exactly what
// gjson.ValidBytes accepts, recording a tape or not.
func FuzzValidJSON(f *testing.F) {
	jsonSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		want := gjson.ValidBytes([]byte(s))
		if got := validJSON([]byte(s)); got != want {
			t.Fatalf("validJSON(%q) = %v, gjson says %v", s, got, want)
		}
		for _, limit := range []int{0, 1, 3} { // recording changes no verdict
			if _, got := tapeOf(s, limit); got != want {
				t.Fatalf("valid(%q) recording %d nodes = %v, gjson says %v", s, limit, got, want)
			}
		}
	})
}

// oldSkipString is the byte loop skipString replaced.
func oldSkipString(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s)
}

// isPlainKey reports whether k can be a gjson path as it is (letters,
// digits, '_' and '-' only; not all digits).
func isPlainKey(k string) bool {
	digits := true
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
		digits = digits && c >= '0' && c <= '9'
	}
	return k != "" && !digits
}

// oldPrefixString is prefixString as it was, decoding with gjson.
func oldPrefixString(raw string, n int) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if len(raw) <= n+2 {
		return gjson.Parse(raw).String()
	}
	i := 1
	for i < n {
		if raw[i] == '\\' {
			i += 2
			if i-1 < len(raw) && raw[i-1] == 'u' {
				i += 4
			}
			continue
		}
		i++
	}
	if i > len(raw)-1 {
		return gjson.Parse(raw).String()
	}
	return gjson.Parse(raw[:i] + `"`).String()
}

// FuzzPrefixString checks the decoder of tool results against gjson on
// every JSON string literal and every cut.
func FuzzPrefixString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b\\c\n\t\u00e9\ud83d\ude00 \/"`, `"\ud83d"`, `"\u0000x"`, `"` + "\xff\xfe" + `"`,
		`"12345678901234567890\\\\\"\n"`, `"\uD800\u0041"`} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, n uint8) {
		if !gjson.Valid(s) || s == "" || s[0] != '"' || skipString(s, 0) != len(s) { // a literal alone, as rawField gives it
			return
		}
		if got, want := prefixString(s, int(n)), oldPrefixString(s, int(n)); got != want {
			t.Fatalf("prefixString(%q, %d) = %q, gjson %q", s, n, got, want)
		}
	})
}

// FuzzSpecialMask checks that the lowest lane specialMask flags is the
// first byte below 0x20, quote or backslash of the eight, and that it
// flags none when there is none.
func FuzzSpecialMask(f *testing.F) {
	for _, s := range []string{"abcdefgh", "a\"cdefgh", "\x00\x01\x1f\x20\"\\\x80\xff", "\xe2\x80\x99\\\\\"\x1f ", "\x7f\x80\xa0\xdc\xc0\x21\x22\x23"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 8 {
			return
		}
		first := -1
		for i, c := range b[:8] {
			if c < 0x20 || c == '"' || c == '\\' {
				first = i
				break
			}
		}
		m := specialMask(binary.LittleEndian.Uint64(b))
		if got := bits.TrailingZeros64(m) / 8; first < 0 && m != 0 || first >= 0 && got != first {
			t.Fatalf("specialMask(%q) = %#x, first special byte %d", b[:8], m, first)
		}
	})
}

// plainEnd is skipPlain byte by byte: where a string's ordinary bytes and
// one-letter escapes end, and whether there was an escape.
func plainEnd(data []byte, i int) (int, bool) {
	escaped := false
	for ; i < len(data); i++ {
		c := data[i]
		if c == '\\' && i+1 < len(data) && strings.IndexByte(`"\/bfnrt`, data[i+1]) >= 0 {
			escaped = true
			i++
			continue
		}
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
	}
	return i, escaped
}

// FuzzSkipPlain checks skipPlain, which looks at sixteen bytes at a time,
// against the byte loop plainEnd from every start.
func FuzzSkipPlain(f *testing.F) {
	for _, s := range []string{`abcdefghijklmnopqrstuvwxyz0123456789"`, `    17→func (s *Server) handle(w http.ResponseWriter) { s.log.Info(\"req\") }\n"`,
		`\\\\\\\\\\\\\\\\\\\\\\\"x"`, "0123456789abcde\\", "0123456789abcdef\x1f", `0123456789abcd\u0041"`, `#"#\]\"##################`} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, start uint8) {
		i := int(start) % (len(data) + 1)
		gi, ge := skipPlain(data, i)
		wi, we := plainEnd(data, i)
		if gi != wi || ge != we {
			t.Fatalf("skipPlain(%q, %d) = %d, %v; byte by byte %d, %v", data, i, gi, ge, wi, we)
		}
	})
}
