package transcript

import (
	"bufio"
	"encoding/binary"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

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
// gjson.ValidBytes accepts.
func FuzzValidJSON(f *testing.F) {
	jsonSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validJSON([]byte(s)), gjson.ValidBytes([]byte(s)); got != want {
			t.Fatalf("validJSON(%q) = %v, gjson says %v", s, got, want)
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

// FuzzFields checks the member and element walkers against gjson on valid
// JSON: members gives what gjson's ForEach gives, getField what gjson.Get
// gives, elements what ForEach on an array gives, both scanning (a nil
// *jumps) and with the long strings recorded by the validator; and
// skipString agrees with the byte loop it replaced on any input, at any
// quote.
func FuzzFields(f *testing.F) {
	jsonSeeds(f)
	f.Add(`{"type":"tool_result","content":"` + strings.Repeat(`ab\"c\\`, 40) + `","is_error":true,"x":["` + strings.Repeat("y", 300) + `"]}`)
	f.Fuzz(func(t *testing.T, s string) {
		var rec jumps
		line := []byte(s)
		rec.reset(line)
		valid := rec.valid(line)
		if len(line) > 0 {
			s = unsafe.String(&line[0], len(line)) // the memory the validator recorded
		}
		for i := 0; i < len(s); i++ {
			if s[i] != '"' {
				continue
			}
			want := oldSkipString(s, i)
			if got := skipString(s, i); got != want {
				t.Fatalf("skipString(%q, %d) = %d, want %d", s, i, got, want)
			}
			if got := rec.skipString(s, i); valid && got != want {
				t.Fatalf("recorded skipString(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
		if !valid {
			return
		}
		checkFields(t, nil, s)
		checkFields(t, &rec, s)
	})
}

func checkFields(t *testing.T, j *jumps, s string) {
	t.Helper()
	type kv struct{ k, v string }
	var got, want []kv
	j.members(s, func(k, v string) bool { got = append(got, kv{k, v}); return true })
	if r := gjson.Parse(s); r.IsObject() {
		r.ForEach(func(k, v gjson.Result) bool { want = append(want, kv{k.Str, v.Raw}); return true })
	}
	if len(got) != len(want) {
		t.Fatalf("members(%q) = %q, gjson %q", s, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("members(%q)[%d] = %q, gjson %q", s, i, got[i], want[i])
		}
	}
	keys := []string{"type", "content", "message", "is_error", "text", "role"}
	for _, m := range got {
		if isPlainKey(m.k) {
			keys = append(keys, m.k)
		}
	}
	for _, k := range keys {
		g, w := j.getField(s, k), gjson.Get(s, k)
		if g.Type != w.Type || g.Raw != w.Raw || g.Str != w.Str || g.Num != w.Num {
			t.Fatalf("getField(%q, %q) = %+v, gjson.Get %+v", s, k, g, w)
		}
		if sv := strValue(w.Raw); sv != gjson.Parse(w.Raw).Str {
			t.Fatalf("strValue(%q) = %q", w.Raw, sv)
		}
	}
	var ge, we []string
	j.elements(s, func(v gjson.Result) bool { ge = append(ge, v.Raw+"\x00"+v.Type.String()); return true })
	gjson.Parse(s).ForEach(func(_, v gjson.Result) bool { we = append(we, v.Raw+"\x00"+v.Type.String()); return true })
	if len(ge) != len(we) {
		t.Fatalf("elements(%q) = %q, gjson %q", s, ge, we)
	}
	for i := range ge {
		if ge[i] != we[i] {
			t.Fatalf("elements(%q)[%d] = %q, gjson %q", s, i, ge[i], we[i])
		}
	}
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
