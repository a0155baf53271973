package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// seeds are the corpus every fuzz test starts from: each rule of the
// grammar, right and wrong.
var seeds = []string{
	`""`, `"plain"`, `"a\"b\\c\/d\be\ff\ng\rh\ti"`, `"\u00e9\u20ac"`, `"\ud83d\ude00"`,
	`"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, `"\ud83dx\ude00"`, "\"\xff\xfe\"", "\"\xe2\x82\"",
	`"\x"`, `"\u12"`, `"\u12G4"`, "\"a\x01\"", `"unterminated`, `"trailing\"`,
	`0`, `-0`, `12`, `-1.5e+10`, `1E5`, `01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x10`,
	`true`, `false`, `null`, `tru`, `nul`, `True`,
	`{}`, `[]`, `{"a":1,"b":[true,null,"x"]}`, ` { "a" : [ 1 , 2 ] } `, `{"a":1,}`, `[1,]`,
	`{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `{"a":1 "b":2}`, `[[[[[]]]]]`, `{"\u0061":1}`,
	strings.Repeat("[", 70) + strings.Repeat("]", 70), `1 2`, ``, ` `, `"abcdefghijklmnopqrstuvwxyz"`,
}

// testDepth is the depth limit the fuzz tests use: deep enough for the
// seeds, shallow enough that a rejection for depth is exercised.
const testDepth = 64

// FuzzSkip: Valid accepts exactly what json.Valid accepts, but for texts
// nested deeper than the limit, which it rejects.
func FuzzSkip(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want := Valid(data, testDepth), json.Valid(data)
		if got && !want {
			t.Fatalf("Valid(%q) accepted what encoding/json rejects", data)
		}
		if !got && want && depthOf(data) <= testDepth {
			t.Fatalf("Valid(%q) rejected what encoding/json accepts", data)
		}
	})
}

// depthOf returns the deepest nesting of brackets outside strings in a
// valid JSON text.
func depthOf(data []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == '[' || c == '{'):
			depth++
			deepest = max(deepest, depth)
		case !inString && (c == ']' || c == '}'):
			depth--
		}
	}
	return deepest
}

// FuzzString: String accepts a literal exactly when encoding/json decodes
// it as a string, with the same value, and StringEnd agrees on its end.
func FuzzString(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, end := String(data, 0)
		if e, _ := StringEnd(data, 0); e != end {
			t.Fatalf("StringEnd(%q) = %d, String's end %d", data, e, end)
		}
		if end < 0 {
			if len(data) > 0 && data[0] == '"' {
				var want string
				if json.Unmarshal(data, &want) == nil && bytes.IndexByte(data[1:len(data)-1], '"') < 0 {
					t.Fatalf("String(%q) rejected what encoding/json decodes to %q", data, want)
				}
			}
			return
		}
		var want string
		if err := json.Unmarshal(data[:end], &want); err != nil {
			t.Fatalf("String(%q) accepted what encoding/json rejects: %v", data[:end], err)
		}
		if s != want {
			t.Fatalf("String(%q) = %q, encoding/json %q", data[:end], s, want)
		}
	})
}

// FuzzNumber: Number accepts a text exactly when encoding/json decodes it
// whole as a number, and integer means it has no fraction and no exponent.
func FuzzNumber(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		end, integer := Number(data, 0)
		whole := end == len(data)
		number := len(data) > 0 && (data[0] == '-' || '0' <= data[0] && data[0] <= '9')
		if want := number && json.Valid(data) && data[len(data)-1] > ' '; whole != want {
			t.Fatalf("Number(%q) = %d, encoding/json valid number: %v", data, end, want)
		}
		if whole && integer != !bytes.ContainsAny(data, ".eE") {
			t.Fatalf("Number(%q) integer = %v", data, integer)
		}
	})
}

// first returns the end StringEnd reports.
func first(end int, _ bool) int { return end }

// TestPrimitives pins the edge cases the fuzz tests start from.
func TestPrimitives(t *testing.T) {
	cases := []struct {
		name string
		got  int
		want int
	}{
		{"space", Space([]byte(" \t\r\nx "), 0), 4},
		{"space to end", Space([]byte("  "), 0), 2},
		{"literal", Literal([]byte("null,"), 0, "null"), 4},
		{"short literal", Literal([]byte("nul"), 0, "null"), -1},
		{"skip object", Skip([]byte(` {"a":[1,"]"]} x`), 0, 0, 2), 14},
		{"skip too deep", Skip([]byte(`[[[1]]]`), 0, 0, 1), -1},
		{"skip at limit", Skip([]byte(`[[[1]]]`), 0, 0, 3), 7},
		{"string end escaped quote", first(StringEnd([]byte(`"a\"b" `), 0)), 6},
		{"string end control", first(StringEnd([]byte("\"a\nb\""), 0)), -1},
		{"string end non-ASCII", first(StringEnd([]byte("\"\xff\xc3\xa9abcdefgh\""), 0)), 13},
		{"space indentation", Space([]byte("\n                  x"), 0), 19},
		{"closing quote", ClosingQuote([]byte(`a\\"b`), 0), 3},
		{"plain run stops at non-ASCII", PlainRun([]byte("abcdefghij\xc3\xa9"), 0), 10},
		{"plain run stops at quote", PlainRun([]byte(`abcdefghijklmnop"`), 0), 16},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
	if _, escaped := StringEnd([]byte(`"a\nb"`), 0); !escaped {
		t.Error("StringEnd: escape not reported")
	}
	if s, end := String([]byte("\"\\ud83d\\ude00 \xff\""), 0); s != "😀 \uFFFD" || end != 16 {
		t.Errorf("String: got %q, %d", s, end)
	}
}
