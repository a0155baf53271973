package seed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/jsonscan"
	"github.com/paige-dev/paige/internal/testenv"
)

// scanBase is a valid seed with every optional field present; each value
// occurs once, so a case can replace it.
const scanBase = `{"version":"1.0.0","identity":{"principalName":"P","aiName":"A","catchphrase":"C","voiceId":"",` +
	`"preferences":{"responseStyle":"concise","timezone":"Europe/Zurich","locale":"en"}},` +
	`"learned":{"patterns":[{"id":"pat","content":"lc","source":"ls","extractedAt":"2026-01-30T18:45:00Z",` +
	`"confirmedAt":"2026-01-31T00:00:00Z","confirmed":true,"tags":["t"]}],"insights":[],"selfKnowledge":[]},` +
	`"state":{"lastSessionId":"sess","lastSessionAt":"2026-02-01T00:00:00Z","proposals":[{"id":"prop",` +
	`"type":"insight","content":"pc","source":"ps","extractedAt":"2026-02-02T00:00:00Z","status":"pending",` +
	`"method":"acr","confidence":0.5,"decidedAt":"2026-02-03T00:00:00Z"}],"activeProjects":["proj"],"checkpointRef":"ref",` +
	`"extractionStats":{"accepted":1,"rejected":2,"byType":{"pattern":{"accepted":3,"rejected":4},` +
	`"insight":{"accepted":5,"rejected":6},"self_knowledge":{"accepted":7,"rejected":8}},` +
	`"confidenceSum":{"accepted":9,"rejected":10},"confidenceCount":{"accepted":11,"rejected":12}}}}`

// scanCase replaces old (once in scanBase) by new; want is scanSeed's
// verdict on the result.
type scanCase struct {
	name, old, new string
	want           verdict
}

const (
	valid   = verdictValid
	invalid = verdictInvalid
	unsure  = verdictUnsure
)

// scanSchemaCases are each schema rule just inside and just outside its
// boundary.
var scanSchemaCases = []scanCase{
	{"base", "", "", valid},
	{"version other minor and patch", `"1.0.0"`, `"1.20.300"`, valid},
	{"version major with leading zero", `"1.0.0"`, `"01.0.0"`, valid},
	{"version two parts", `"1.0.0"`, `"1.0"`, invalid},
	{"version major 2", `"1.0.0"`, `"2.0.0"`, invalid},
	{"version major 0", `"1.0.0"`, `"0.9.9"`, invalid},
	{"version prerelease", `"1.0.0"`, `"1.0.0-rc"`, invalid},
	{"version number", `"1.0.0"`, `1`, invalid},
	{"version missing", `"version":"1.0.0",`, ``, invalid},
	{"non-empty one character", `"principalName":"P"`, `"principalName":"Q"`, valid},
	{"non-empty empty", `"principalName":"P"`, `"principalName":""`, invalid},
	{"non-empty escape only", `"principalName":"P"`, `"principalName":"\n"`, valid},
	{"non-empty unicode escape", `"principalName":"P"`, `"principalName":"\u00e9"`, valid},
	{"non-empty null", `"aiName":"A"`, `"aiName":null`, invalid},
	{"required string missing", `"catchphrase":"C",`, ``, invalid},
	{"string empty allowed", `"timezone":"Europe/Zurich"`, `"timezone":""`, valid},
	{"string number", `"voiceId":""`, `"voiceId":0`, invalid},
	{"string missing", `"voiceId":"",`, ``, invalid},
	{"learning content empty", `"lc"`, `""`, invalid},
	{"learning source empty", `"ls"`, `""`, invalid},
	{"proposal content empty", `"pc"`, `""`, invalid},
	{"proposal source empty", `"ps"`, `""`, invalid},
	{"learning id empty allowed", `"pat"`, `""`, valid},
	{"enum detailed", `"concise"`, `"detailed"`, valid},
	{"enum adaptive", `"concise"`, `"adaptive"`, valid},
	{"enum case", `"concise"`, `"Concise"`, invalid},
	{"enum empty", `"concise"`, `""`, invalid},
	{"enum number", `"concise"`, `1`, invalid},
	{"enum prefix", `"concise"`, `"concis"`, invalid},
	{"type pattern", `"type":"insight"`, `"type":"pattern"`, valid},
	{"type self_knowledge", `"type":"insight"`, `"type":"self_knowledge"`, valid},
	{"type camel case", `"type":"insight"`, `"type":"selfKnowledge"`, invalid},
	{"status accepted", `"pending"`, `"accepted"`, valid},
	{"status rejected", `"pending"`, `"rejected"`, valid},
	{"status other", `"pending"`, `"done"`, invalid},
	{"method regex", `"acr"`, `"regex"`, valid},
	{"method case", `"acr"`, `"ACR"`, invalid},
	{"method absent", `"method":"acr",`, ``, valid},
	{"method null", `"acr"`, `null`, invalid},
	{"datetime leap day", `"2026-01-30T18:45:00Z"`, `"2024-02-29T00:00:00Z"`, valid},
	{"datetime 2000 leap day", `"2026-01-30T18:45:00Z"`, `"2000-02-29T00:00:00Z"`, valid},
	{"datetime year 0 leap day", `"2026-01-30T18:45:00Z"`, `"0000-02-29T00:00:00Z"`, valid},
	{"datetime no leap day", `"2026-01-30T18:45:00Z"`, `"2025-02-29T00:00:00Z"`, invalid},
	{"datetime 1900 no leap day", `"2026-01-30T18:45:00Z"`, `"1900-02-29T00:00:00Z"`, invalid},
	{"datetime April 30", `"2026-01-30T18:45:00Z"`, `"2026-04-30T00:00:00Z"`, valid},
	{"datetime April 31", `"2026-01-30T18:45:00Z"`, `"2026-04-31T00:00:00Z"`, invalid},
	{"datetime last instant", `"2026-01-30T18:45:00Z"`, `"9999-12-31T23:59:59.999999Z"`, valid},
	{"datetime month 13", `"2026-01-30T18:45:00Z"`, `"2026-13-01T00:00:00Z"`, invalid},
	{"datetime month 0", `"2026-01-30T18:45:00Z"`, `"2026-00-10T00:00:00Z"`, invalid},
	{"datetime day 0", `"2026-01-30T18:45:00Z"`, `"2026-01-00T00:00:00Z"`, invalid},
	{"datetime hour 24", `"2026-01-30T18:45:00Z"`, `"2026-01-30T24:00:00Z"`, invalid},
	{"datetime minute 60", `"2026-01-30T18:45:00Z"`, `"2026-01-30T23:60:00Z"`, invalid},
	{"datetime second 60", `"2026-01-30T18:45:00Z"`, `"2026-01-30T23:59:60Z"`, invalid},
	{"datetime empty fraction", `"2026-01-30T18:45:00Z"`, `"2026-01-30T18:45:00.Z"`, invalid},
	{"datetime no Z", `"2026-01-30T18:45:00Z"`, `"2026-01-30T18:45:00"`, invalid},
	{"datetime offset", `"2026-01-30T18:45:00Z"`, `"2026-01-30T18:45:00+02:00"`, invalid},
	{"datetime lower-case t", `"2026-01-30T18:45:00Z"`, `"2026-01-30t18:45:00Z"`, invalid},
	{"datetime number", `"2026-01-30T18:45:00Z"`, `20260130`, invalid},
	{"optional datetime absent", `"confirmedAt":"2026-01-31T00:00:00Z",`, ``, valid},
	{"optional datetime null", `"2026-01-31T00:00:00Z"`, `null`, invalid},
	{"optional datetime bad", `"2026-02-03T00:00:00Z"`, `"2026-02-30T00:00:00Z"`, invalid},
	{"decidedAt absent", `,"decidedAt":"2026-02-03T00:00:00Z"`, ``, valid},
	{"lastSessionAt absent", `"lastSessionAt":"2026-02-01T00:00:00Z",`, ``, valid},
	{"lastSessionAt bad", `"2026-02-01T00:00:00Z"`, `"yesterday"`, invalid},
	{"lastSessionId number", `"sess"`, `1`, invalid},
	{"checkpointRef absent", `"checkpointRef":"ref",`, ``, valid},
	{"checkpointRef null", `"ref"`, `null`, invalid},
	{"bool false", `"confirmed":true`, `"confirmed":false`, valid},
	{"bool string", `"confirmed":true`, `"confirmed":"true"`, invalid},
	{"bool number", `"confirmed":true`, `"confirmed":1`, invalid},
	{"bool missing", `"confirmed":true,`, ``, invalid},
	{"number negative zero", `0.5`, `-0`, valid},
	{"number integer", `0.5`, `42`, valid},
	{"number 300 digits", `0.5`, strings.Repeat("9", 300), valid},
	{"number long fraction", `0.5`, "0." + strings.Repeat("0", 400) + "1", valid},
	{"number string", `0.5`, `"0.5"`, invalid},
	{"number absent", `,"confidence":0.5`, ``, valid},
	{"count fraction", `"accepted":1,`, `"accepted":1.25,`, valid},
	{"count missing", `"accepted":1,`, `"acceptedX":1,`, invalid},
	{"count null", `"rejected":12`, `"rejected":null`, invalid},
	{"tags empty", `["t"]`, `[]`, valid},
	{"tags number element", `["t"]`, `["t",1]`, invalid},
	{"tags null element", `["t"]`, `[null]`, invalid},
	{"tags string", `["t"]`, `"t"`, invalid},
	{"tags missing", `"tags":`, `"tagz":`, invalid},
	{"learnings element number", `"insights":[]`, `"insights":[1]`, invalid},
	{"learnings object", `"insights":[]`, `"insights":{}`, invalid},
	{"learnings null", `"insights":[]`, `"insights":null`, invalid},
	{"learnings missing", `"selfKnowledge":`, `"selfKnowledgE":`, invalid},
	{"learning empty object", `"insights":[]`, `"insights":[{}]`, invalid},
	{"proposals missing", `"proposals":`, `"proposalz":`, invalid},
	{"activeProjects empty", `["proj"]`, `[]`, valid},
	{"activeProjects number", `["proj"]`, `[7]`, invalid},
	{"extractionStats absent", `"extractionStats":`, `"extractionStatz":`, valid},
	{"extractionStats null", `"extractionStats":{`, `"extractionStats":null,"x":{`, invalid},
	{"byType entry missing", `"self_knowledge":`, `"selfKnowledge":`, invalid},
	{"confidenceCount missing", `"confidenceCount":`, `"confidenceCounts":`, invalid},
	{"preferences missing", `"preferences":`, `"preferencez":`, invalid},
	{"identity array", `"identity":{`, `"identity":[],"i2":{`, invalid},
	{"state string", `"state":{`, `"state":"s","s2":{`, invalid},
	{"root empty object", scanBase, `{}`, invalid},
	{"nested unknown key", `"locale":"en"`, `"locale":"en","extra":{"a":[1,true,false,null,{"b":"\u00e9\ud800"}],"c":-1.5e3,"d":""}`, valid},
	{"nested unknown key repeated", `"locale":"en"`, `"locale":"en","x":1,"x":[2]`, valid},
	{"root unknown keys", `{"version"`, `{"zeta":1,"alpha":[],"ключ":{"k":null},"version"`, valid},
	{"root unknown key repeated", `{"version"`, `{"zz":1,"zz":2,"version"`, valid},
}

// scanJSONCases are the JSON the scanner judges and the JSON it leaves to
// the decoding path.
var scanJSONCases = []scanCase{
	{"trailing comma", `"locale":"en"`, `"locale":"en",`, invalid},
	{"missing comma", `"aiName":"A",`, `"aiName":"A"`, invalid},
	{"missing colon", `"aiName":"A"`, `"aiName" "A"`, invalid},
	{"unquoted key", `"aiName":"A"`, `aiName:"A"`, invalid},
	{"control character", `"catchphrase":"C"`, "\"catchphrase\":\"C\x01\"", invalid},
	{"raw newline in string", `"catchphrase":"C"`, "\"catchphrase\":\"C\n\"", invalid},
	{"bad escape", `"catchphrase":"C"`, `"catchphrase":"C\q"`, invalid},
	{"bad unicode escape", `"catchphrase":"C"`, `"catchphrase":"C\u00g0"`, invalid},
	{"short unicode escape", `"catchphrase":"C"`, `"catchphrase":"C\u00"`, invalid},
	{"invalid UTF-8 in a value", `"catchphrase":"C"`, "\"catchphrase\":\"C\xff\"", valid},
	{"invalid UTF-8 in an enum", `"concise"`, "\"concise\xff\"", invalid},
	{"leading zero", `0.5`, `05`, invalid},
	{"bare fraction", `0.5`, `.5`, invalid},
	{"dot without digits", `0.5`, `1.`, invalid},
	{"lone minus", `0.5`, `-`, invalid},
	{"exponent without digits", `0.5`, `1e`, invalid},
	{"plus sign", `0.5`, `+1`, invalid},
	{"short literal", `"confirmed":true`, `"confirmed":tru`, invalid},
	{"long literal", `"confirmed":true`, `"confirmed":truex`, invalid},
	{"bad nested unknown value", `"locale":"en"`, `"locale":"en","x":[1,]`, invalid},
	{"truncated", `}}}`, `}}`, invalid},
	{"unclosed string", `}}}`, `,"x":"`, invalid},
	{"leading and trailing whitespace", scanBase, " \t\r\n" + scanBase + "\n\n", valid},
	{"number exponent", `0.5`, `1.5e2`, unsure},
	{"number out of range", `0.5`, `1e400`, unsure},
	{"number 301 digits", `0.5`, strings.Repeat("9", 301), unsure},
	{"escape in version", `"1.0.0"`, `"1.0.\u0030"`, unsure},
	{"escape in enum", `"concise"`, `"concis\u0065"`, unsure},
	{"escape in datetime", `"2026-01-30T18:45:00Z"`, `"2026-01-30T18:45:00\u005a"`, unsure},
	{"escape in key", `{"version"`, `{"v\u0065rsion":"9.0.0","version"`, unsure},
	{"escape in unknown nested key", `"locale":"en"`, `"locale":"en","\u0078":1`, unsure},
	{"invalid UTF-8 in a root key", `{"version"`, "{\"k\xff\":1,\"version\"", unsure},
	{"repeated root key", `{"version"`, `{"version":"9.9.9","version"`, unsure},
	{"repeated nested key", `"aiName":"A"`, `"aiName":1,"aiName":"A"`, unsure},
	{"byte order mark", scanBase, "\ufeff" + scanBase, unsure},
	{"trailing object", scanBase, scanBase + ` {}`, unsure},
	{"trailing garbage", scanBase, scanBase + ` }`, unsure},
	{"top-level array", scanBase, `[]`, unsure},
	{"top-level null", scanBase, `null`, unsure},
	{"empty", scanBase, ``, unsure},
	{"deep unknown value", `"locale":"en"`, `"locale":"en","x":` + strings.Repeat("[", maxFastDepth+5) + strings.Repeat("]", maxFastDepth+5), unsure},
	{"deep enough unknown value", `"locale":"en"`, `"locale":"en","x":` + strings.Repeat("[", maxFastDepth-5) + strings.Repeat("]", maxFastDepth-5), valid},
}

// apply returns scanBase with c's replacement, failing tb when c.old does
// not occur exactly once.
func (c scanCase) apply(tb testing.TB) []byte {
	tb.Helper()
	switch {
	case c.old == "":
		return []byte(scanBase)
	case c.old == scanBase:
		return []byte(c.new)
	case strings.Count(scanBase, c.old) != 1:
		tb.Fatalf("%s: %q occurs %d times in scanBase", c.name, c.old, strings.Count(scanBase, c.old))
	}
	return []byte(strings.Replace(scanBase, c.old, c.new, 1))
}

func TestScanSeedCases(t *testing.T) {
	for _, c := range append(append([]scanCase{}, scanSchemaCases...), scanJSONCases...) {
		t.Run(c.name, func(t *testing.T) {
			data := c.apply(t)
			if got, _ := scanSeed(data); got != c.want {
				t.Errorf("verdict %d, want %d (decoding path: %+v)", got, c.want, validateDecoded(data))
			}
			checkScanSeed(t, data)
		})
	}
}

// TestScanSeedLayouts checks that indentation and line endings do not
// change the verdict.
func TestScanSeedLayouts(t *testing.T) {
	for _, indent := range []string{" ", "  ", "   ", "\t", "         "} {
		var buf bytes.Buffer
		if err := json.Indent(&buf, []byte(scanBase), "", indent); err != nil {
			t.Fatal(err)
		}
		for _, data := range [][]byte{buf.Bytes(), bytes.ReplaceAll(buf.Bytes(), []byte("\n"), []byte("\r\n"))} {
			if got, _ := scanSeed(data); got != verdictValid {
				t.Errorf("indent %q: verdict %d, want valid", indent, got)
			}
			checkScanSeed(t, data)
		}
	}
}

func TestScanSeedFixtures(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("fixtures: %v %v", names, err)
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := scanSeed(data)
		if wantValid := strings.Contains(name, "valid-seed") || strings.Contains(name, "large-seed"); wantValid != (got == verdictValid) {
			t.Errorf("%s: verdict %d", name, got)
		}
		checkScanSeed(t, data)
	}
}

// TestValidateJSONValidAllocatesNothing: the 1,600-entry seed is judged
// valid without building any value.
func TestValidateJSONValidAllocatesNothing(t *testing.T) {
	data := fixture(t, "large-seed.json")
	if n := testing.AllocsPerRun(5, func() { ValidateJSON(data) }); n != 0 {
		t.Errorf("%v allocations per validation, want 0", n)
	}
}

// checkScanSeed fails tb when scanSeed's verdict on data disagrees with the
// decoding path, or ValidateJSON's answer differs from that path's.
func checkScanSeed(tb testing.TB, data []byte) {
	tb.Helper()
	v, warnings := scanSeed(data)
	slow := validateDecoded(data)
	switch v {
	case verdictValid:
		if want := (ValidationResult{Valid: true, Warnings: warnings}); !reflect.DeepEqual(slow, want) {
			tb.Fatalf("%q: scanned valid with warnings %q, decoding path %+v", data, warnings, slow)
		}
	case verdictInvalid:
		if slow.Valid {
			tb.Fatalf("%q: scanned invalid, decoding path valid", data)
		}
	}
	if got := ValidateJSON(data); !reflect.DeepEqual(got, slow) {
		tb.Fatalf("%q: ValidateJSON %+v, decoding path %+v", data, got, slow)
	}
}

// FuzzScanSeed: scanSeed's verdict valid ⟺ the decoding path finds no
// error (with the same warnings), except where scanSeed says unsure.
func FuzzScanSeed(f *testing.F) {
	for _, name := range []string{"valid-seed.json", "valid-seed-minimal.json", "invalid-missing-version.json", "invalid-wrong-types.json", "invalid-values-seed.json"} {
		f.Add(fixture(f, name))
	}
	for _, c := range append(append([]scanCase{}, scanSchemaCases...), scanJSONCases...) {
		f.Add(c.apply(f))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScanSeed(t, data)
	})
}

// TestDatetimeBytesMatchesIsDatetime compares the two over every month
// and day boundary of leap and common years, the time fields' boundaries
// and malformed layouts.
func TestDatetimeBytesMatchesIsDatetime(t *testing.T) {
	var ins []string
	for _, y := range []int{0, 4, 100, 400, 1900, 1999, 2000, 2023, 2024, 2100, 9999} {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				ins = append(ins, fmt.Sprintf("%04d-%02d-%02dT12:00:00Z", y, m, d))
			}
		}
	}
	for _, h := range []int{0, 23, 24, 99} {
		for _, mi := range []int{0, 59, 60} {
			for _, s := range []int{0, 59, 60} {
				ins = append(ins, fmt.Sprintf("2026-01-30T%02d:%02d:%02dZ", h, mi, s))
			}
		}
	}
	ins = append(ins, "", "Z", "2026-01-30T18:45:00Z", "2026-01-30T18:45:00.1Z", "2026-01-30T18:45:00.Z",
		"2026-01-30T18:45:00.1aZ", "2026-01-30T18:45:00", "2026-01-30 18:45:00Z", "2026-01-30T18:45Z",
		"2026-1-30T18:45:00Z", "x026-01-30T18:45:00Z", "2026-01-30T18:45:00ZZ", "2026-01-30T18:45:00+02:00")
	for _, in := range ins {
		if got, want := datetimeBytes([]byte(in)), IsDatetime(in); got != want {
			t.Errorf("datetimeBytes(%q) = %v, IsDatetime %v", in, got, want)
		}
	}
}

// BenchmarkByteScanFloor measures floors for a scan of the 1,600-entry
// seed (compare with BenchmarkValidateJSONLarge): utf8.Valid; a loop that
// looks at every byte once as a JSON string scan must (quote, backslash,
// control character); and the scan's own eight-bytes-at-a-time search
// stopping at each of those bytes, with no structure or schema.
func BenchmarkByteScanFloor(b *testing.B) {
	data := fixture(b, "large-seed.json")
	b.Run("utf8.Valid", func(b *testing.B) {
		start, n := testenv.CPUTime(), 0
		for b.Loop() {
			if !utf8.Valid(data) {
				b.Fatal("invalid UTF-8")
			}
			n++
		}
		b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
	})
	b.Run("byte loop", func(b *testing.B) {
		start, n := testenv.CPUTime(), 0
		for b.Loop() {
			specials := 0
			for _, c := range data {
				if c == '"' || c == '\\' || c < 0x20 {
					specials++
				}
			}
			if specials == 0 {
				b.Fatal("no special bytes")
			}
			n++
		}
		b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
	})
	b.Run("special stops", func(b *testing.B) {
		start, n := testenv.CPUTime(), 0
		for b.Loop() {
			stops := 0
			for i := jsonscan.Special(data, 0); i < len(data); i = jsonscan.Special(data, i+1) {
				stops++
			}
			if stops == 0 {
				b.Fatal("no special bytes")
			}
			n++
		}
		b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
	})
}
