package seed

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fastCases are inputs fastDecode must decode exactly as encoding/json
// does, or leave to it.
var fastCases = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e+10`, `-2E-3`, `12345678901234567890`,
	`"plain"`, `"é ü 日本"`, `"esc \" \\ \/ \b \f \n \r \t end"`, `"\u00e9"`, `"\ud800"`,
	` { "a" : [ 1 , 2 , { "b" : null } ] , "c" : "" } `, `{"a":1,"a":2}`, `{"a":[],"b":{}}`,
	`[[[[[]]]]]`, "\"bad \xff utf8\"", "\"ctl \x01\"", `01`, `1.`, `.5`, `-`, `1e`, `+1`, `tru`, `nul`,
	`{"a":1,}`, `[1,]`, `{"a" 1}`, `{a:1}`, `[1 2]`, `{} }`, `{} {}`, `{}x`, `"unterminated`, `{"a":"b`,
	"\f{}", "{}\n\t ", `{"a":"\q"}`, `{"a":"x\`,
}

func TestFastDecodeMatchesEncodingJSON(t *testing.T) {
	for _, in := range fastCases {
		checkFastDecode(t, []byte(in))
	}
	for _, name := range []string{"large-seed.json", "valid-seed.json", "valid-seed-minimal.json", "invalid-wrong-types.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := fastDecode(data); !ok {
			t.Errorf("%s: not decoded by the fast path", name)
		}
		checkFastDecode(t, data)
	}
	deep := strings.Repeat("[", maxFastDepth+5) + strings.Repeat("]", maxFastDepth+5)
	if _, ok := fastDecode([]byte(deep)); ok {
		t.Error("nesting beyond maxFastDepth decoded by the fast path")
	}
	checkFastDecode(t, []byte(deep))
}

// checkFastDecode fails when fastDecode accepts data and its value differs
// from encoding/json's, or encoding/json rejects data.
func checkFastDecode(tb testing.TB, data []byte) {
	tb.Helper()
	got, ok := fastDecode(data)
	if !ok {
		return
	}
	want, err := decodeAnyStd(data)
	if err != nil {
		tb.Fatalf("%q: fast path accepted what encoding/json rejects: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		tb.Fatalf("%q: fast path %#v, encoding/json %#v", data, got, want)
	}
}

func FuzzFastDecode(f *testing.F) {
	for _, in := range fastCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastDecode(t, data)
	})
}
