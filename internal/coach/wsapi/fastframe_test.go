package wsapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/limits"
	"github.com/paige-dev/paige/internal/testenv"
)

// checkFastAgrees fails t when fastBufferUpdate accepts frame and the
// encoding/json path (DecodeEnvelope, then DecodePayload, as the route of
// buffer:update does) rejects it or returns anything not deeply equal. It
// reports whether the fast path accepted frame.
func checkFastAgrees(t *testing.T, frame []byte) bool {
	t.Helper()
	env, bu, ok := fastBufferUpdate(frame)
	if !ok {
		return false
	}
	slowEnv, err := DecodeEnvelope(frame)
	if err != nil {
		t.Fatalf("fast path accepted %q, encoding/json rejects it: %v", frame, err)
	}
	if !reflect.DeepEqual(env, slowEnv) {
		t.Fatalf("envelope of %q differs (-slow +fast):\n%s", frame, cmp.Diff(slowEnv, env))
	}
	slowBU, err := DecodePayload[BufferUpdate](slowEnv)
	if err != nil {
		t.Fatalf("fast path accepted %q, encoding/json's payload is refused: %v", frame, err)
	}
	if !reflect.DeepEqual(bu, slowBU) {
		t.Fatalf("payload of %q differs (-slow +fast):\n%s", frame, cmp.Diff(slowBU, bu))
	}
	return true
}

// bufferFrame is a buffer:update frame as Go clients (bench/wsload, the
// tests) write it: json.Marshal of maps, keys sorted, <>& escaped.
func bufferFrame(t testing.TB, payload map[string]any, extra map[string]any) []byte {
	t.Helper()
	m := map[string]any{"type": TypeBufferUpdate, "payload": payload}
	for k, v := range extra {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFastBufferUpdateTakesCommonFrames: the frames editors and the load
// tools send take the fast path, with the result encoding/json gives.
func TestFastBufferUpdateTakesCommonFrames(t *testing.T) {
	code := strings.Repeat("if (a < b && c > d) { return \"x\\ty\"; } // é ✓ 🙂\n", 60)
	tests := []struct {
		name  string
		frame []byte
	}{
		{"bench/wsload", bufferFrame(t, map[string]any{"path": "src/main.ts", "content": code,
			"cursorPosition": map[string]int{"line": 10, "column": 3}}, map[string]any{"timestamp": 1700000000000})},
		{"web client", []byte(`{"type":"buffer:update","payload":{"path":"a.go","content":"x\ny","cursorPosition":{"line":1,"column":2}},"id":"c12"}`)},
		{"numeric id, data alias, spaces", []byte(" {\n\t\"data\" : { \"content\" : \"\" , \"path\" : \"a.go\" } , \"id\" : -12.5e3 , \"type\" : \"buffer:update\" }\r\n")},
		{"type after payload, escaped type", []byte(`{"payload":{"path":"a","content":"b"},"type":"buffer\u003aupdate"}`)},
		{"unknown fields skipped", []byte(`{"type":"buffer:update","v":[1,{"x":null},"s\"",true,false],"payload":{"path":"a","content":"b","extra":{"k":[0.5e-3]},"cursorPosition":{"line":0,"column":-0,"z":1}}}`)},
		{"selections", []byte(`{"type":"buffer:update","payload":{"path":"a","content":"b","selections":[ {"start":1} ,null,"x",[]]}}`)},
		{"empty selections", []byte(`{"type":"buffer:update","payload":{"path":"a","content":"b","selections":[]}}`)},
		{"null selections", []byte(`{"type":"buffer:update","payload":{"path":"a","content":"b","selections":null}}`)},
		{"escapes and surrogates", []byte(`{"type":"buffer:update","payload":{"path":"d\u00e9j\u00E0.go","content":"\ud83d\ude00 \ud83d x \udc00\u0041\\\/\b\f\r\t\"\u0000"}}`)},
		{"invalid UTF-8", []byte("{\"type\":\"buffer:update\",\"payload\":{\"path\":\"a\",\"content\":\"\xff\xc3(\xed\xa0\x80 ok \xe2\x82\"}}")},
		{"timestamps", []byte(`{"type":"buffer:update","timestamp":1.7e12,"payload":{"path":"a","content":"b"}}`)},
		{"odd timestamp and id", []byte(`{"type":"buffer:update","timestamp":"soon","id":{"x":1},"payload":{"path":"a","content":"b"}}`)},
		{"huge timestamp", []byte(`{"type":"buffer:update","timestamp":1e400,"id":true,"payload":{"path":"a","content":"b"}}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !checkFastAgrees(t, tt.frame) {
				t.Errorf("fast path refused %q", tt.frame)
			}
		})
	}
}

// TestFastBufferUpdateFallsBack: anything unusual or wrong is left to
// encoding/json, which alone answers errors.
func TestFastBufferUpdateFallsBack(t *testing.T) {
	ok := `"path":"a","content":"b"`
	tests := []struct{ name, frame string }{
		{"other type", `{"type":"file:save","payload":{` + ok + `}}`},
		{"no type", `{"payload":{` + ok + `}}`},
		{"type not a string", `{"type":1,"payload":{` + ok + `}}`},
		{"duplicate type", `{"type":"buffer:update","type":"buffer:update","payload":{` + ok + `}}`},
		{"duplicate payload field", `{"type":"buffer:update","payload":{` + ok + `,"path":"c"}}`},
		{"duplicate cursor field", `{"type":"buffer:update","payload":{` + ok + `,"cursorPosition":{"line":1,"line":2}}}`},
		{"payload and data", `{"type":"buffer:update","payload":{` + ok + `},"data":{}}`},
		{"null payload", `{"type":"buffer:update","payload":null,"data":{` + ok + `}}`},
		{"no payload", `{"type":"buffer:update"}`},
		{"case-folded key", `{"Type":"buffer:update","payload":{` + ok + `}}`},
		{"case-folded payload key", `{"type":"buffer:update","payload":{"Path":"a","content":"b"}}`},
		{"escaped key", `{"typ\u0065":"buffer:update","payload":{` + ok + `}}`},
		{"non-ASCII key", `{"type":"buffer:update","payload":{` + ok + `,"ſelections":[]}}`},
		{"missing content", `{"type":"buffer:update","payload":{"path":"a"}}`},
		{"null content", `{"type":"buffer:update","payload":{"path":"a","content":null}}`},
		{"blank path", `{"type":"buffer:update","payload":{"path":" ","content":"b"}}`},
		{"content not a string", `{"type":"buffer:update","payload":{"path":"a","content":1}}`},
		{"fractional line", `{"type":"buffer:update","payload":{` + ok + `,"cursorPosition":{"line":1.0}}}`},
		{"huge line", `{"type":"buffer:update","payload":{` + ok + `,"cursorPosition":{"line":12345678901234567890}}}`},
		{"over a limit", string(bufferFrame(t, map[string]any{"path": "a", "content": "b", "selections": make([]any, limits.ListItems+1)}, nil))},
		{"invalid escape", `{"type":"buffer:update","payload":{"path":"a","content":"\x"}}`},
		{"control character", "{\"type\":\"buffer:update\",\"payload\":{\"path\":\"a\",\"content\":\"\n\"}}"},
		{"trailing data", `{"type":"buffer:update","payload":{` + ok + `}} x`},
		{"trailing comma", `{"type":"buffer:update","payload":{` + ok + `,}}`},
		{"leading zero", `{"type":"buffer:update","id":01,"payload":{` + ok + `}}`},
		{"unicode space around", "\u00a0{\"type\":\"buffer:update\",\"payload\":{" + ok + "}}"},
		{"truncated", `{"type":"buffer:update","payload":{` + ok},
		{"deep unknown value", `{"type":"buffer:update","x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `,"payload":{` + ok + `}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if checkFastAgrees(t, []byte(tt.frame)) {
				t.Errorf("fast path accepted %q", tt.frame)
			}
		})
	}
}

// fuzzSeeds are real frames: every client→server type of the catalog with
// its zero payload, each also as a buffer:update, the frames the tests and
// the load tools send, and the edge cases above.
func fuzzSeeds(f testing.TB) [][]byte {
	var out [][]byte
	for _, m := range Catalog {
		if m.Direction != ClientToServer {
			continue
		}
		for _, typ := range []string{m.Type, TypeBufferUpdate} {
			b, err := json.Marshal(map[string]any{"type": typ, "payload": m.Payload(), "id": "c1", "timestamp": 1700000000000})
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, b)
		}
	}
	base := strings.Repeat("line of code\n", 20)
	for i, p := range []map[string]any{
		{"path": "main.go", "content": base, "cursorPosition": map[string]int{"line": 20, "column": 1}},
		{"path": "src/main.ts", "content": "const value = compute(input) + 1; // line of code\n// 1\n", "cursorPosition": map[string]int{"line": 10, "column": 1}},
		{"path": "main.go", "content": "edited", "cursorPosition": map[string]int{"line": 1, "column": 2}},
		{"path": "a.go", "content": "<&>\u2028é\U0001F600", "selections": []any{map[string]any{"start": 1}}},
	} {
		out = append(out, bufferFrame(f, p, map[string]any{"timestamp": 1700000000000 + i}))
	}
	for _, s := range []string{
		`{"type":"buffer:update","data":{"path":"a","content":"x","cursorPosition":{"line":1,"column":2}}}`,
		`{"type":"buffer:update","payload":[1]}`,
		`{"type":"buffer:update","payload":{"path":"a","content":"\ud800\udc00\ud800"}}`,
		"{\"type\":\"buffer:update\",\"payload\":{\"path\":\"a\",\"content\":\"\xed\xa0\x80\xff\"}}",
		`{"type":"buffer:update","payload":{"path":"a","content":"b"},"ID":7}`,
		`{"type":"x","id":1e309}`, `{"type":"\u0000"}`, `[]`, `null`, `{"type":null}`, `{`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// FuzzFastBufferUpdate proves the fast path equivalent to encoding/json:
// whenever it accepts a frame, DecodeEnvelope and DecodePayload accept it
// too with deeply equal results, so every refused frame, and every error,
// goes through encoding/json.
func FuzzFastBufferUpdate(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		checkFastAgrees(t, frame)
	})
}

// TestFastBufferUpdateSeedsAccepted keeps the seed corpus meaningful: most
// buffer:update seeds take the fast path.
func TestFastBufferUpdateSeedsAccepted(t *testing.T) {
	n := 0
	for _, seed := range fuzzSeeds(t) {
		if checkFastAgrees(t, seed) {
			n++
		}
	}
	if n < 6 {
		t.Errorf("%d seeds take the fast path, want at least 6", n)
	}
}

// BenchmarkFastBufferUpdate decodes the benchmark's 2.6 KB frame (200
// escaped newlines) on the fast path, and on encoding/json's for
// comparison.
func BenchmarkFastBufferUpdate(b *testing.B) {
	frame := bufferFrame(b, map[string]any{"path": "main.go", "content": strings.Repeat("line of code\n", 200),
		"cursorPosition": map[string]int{"line": 200, "column": 3}}, nil)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(frame)))
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			if _, _, ok := fastBufferUpdate(frame); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(frame)))
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			env, err := DecodeEnvelope(frame)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := DecodePayload[BufferUpdate](env); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reportCPU starts counting the process's CPU time; the function it returns
// reports it per operation as cpu-ns/op.
func reportCPU(b *testing.B) func() {
	cpu0 := testenv.CPUTime()
	return func() {
		b.ReportMetric(float64((testenv.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
