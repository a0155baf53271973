package mcphttp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func addBodies(f *testing.F) {
	for _, c := range directCases {
		f.Add(c.body)
	}
	for _, c := range sdkCases {
		f.Add(c.body)
	}
}

// FuzzParseCall: whatever parseCall accepts, encoding/json accepts too and
// decodes to the same id, method, name, arguments and _meta.
func FuzzParseCall(f *testing.F) {
	addBodies(f)
	f.Fuzz(func(t *testing.T, body string) {
		c, ok := parseCall([]byte(body))
		if !ok {
			return
		}
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      any             `json:"id"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(body), &msg); err != nil {
			t.Fatalf("accepted %q, which encoding/json rejects: %v", body, err)
		}
		var params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
			Meta      json.RawMessage `json:"_meta"`
		}
		if err := json.Unmarshal(msg.Params, &params); err != nil {
			t.Fatalf("params of %q: %v", body, err)
		}
		if msg.JSONRPC != "2.0" || msg.Method != "tools/call" || params.Name != c.name {
			t.Fatalf("%q: decoded %+v %+v, parsed %+v", body, msg, params, c)
		}
		if id := idValue(c.id); !cmp.Equal(id, msg.ID) {
			t.Fatalf("%q: id %v, encoding/json %v", body, id, msg.ID)
		}
		if f, isNum := msg.ID.(float64); isNum && float64(int64(f)) != f {
			t.Fatalf("%q: fractional id %v accepted", body, f)
		}
		if string(params.Arguments) != string(c.args) || string(params.Meta) != string(c.meta) {
			t.Fatalf("%q: arguments %s / %s, _meta %s / %s", body, c.args, params.Arguments, c.meta, params.Meta)
		}
	})
}

// FuzzAppendString: appendString's JSON decodes to what encoding/json's
// encoding of the same string decodes to.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\n\r\t\x00\x1f", "<&>", "\u2028\u2029", "\xff\xfe", "é😀", "a\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want string
		if err := json.Unmarshal(appendString(nil, s), &got); err != nil {
			t.Fatalf("%q: invalid JSON %s: %v", s, appendString(nil, s), err)
		}
		b, _ := json.Marshal(s)
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%q: decodes to %q, encoding/json's to %q", s, got, want)
		}
	})
}

// FuzzDirectMatchesSDK sends each body to a handler with the direct path
// and to one without: the answers must be the same.
func FuzzDirectMatchesSDK(f *testing.F) {
	addBodies(f)
	direct, sdk := newTestServer(f, true, 0), newTestServer(f, false, 0)
	dsid, ssid := direct.open(f), sdk.open(f)
	f.Fuzz(func(t *testing.T, body string) {
		if strings.Contains(body, "block") || strings.Contains(body, "initialize") || strings.Contains(body, "ompletion") {
			return // the blocking tool waits forever; a new session or an SDK-only feature is not the direct path
		}
		got, _ := direct.post(t, dsid, body)
		want, _ := sdk.post(t, ssid, body)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%q (-sdk +direct):\n%s", body, diff)
		}
	})
}

// escapes answers a string it has seen, and a new string with the same
// bytes, as appendString does.
func TestEscapesCache(t *testing.T) {
	var e escapes
	long := strings.Repeat("a\"b\u2028\n", 400)
	for i := range 20 {
		s := long
		if i%3 == 0 {
			s = strings.Clone(long) // same bytes, another string
		} else if i%5 == 0 {
			s = long[:len(long)-i] // another length
		}
		if got, want := string(e.append([]byte("x"), s)), "x"+string(appendString(nil, s)); got != want {
			t.Fatalf("round %d: got %.40q…, want %.40q…", i, got, want)
		}
	}
}
