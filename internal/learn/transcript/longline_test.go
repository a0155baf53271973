package transcript

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/learn"
)

func TestCloseJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type":"user","message":{"role":"user","content":"hello wor`, `{"type":"user","message":{"role":"user","content":"hello wor"}}`},
		{`{"a":"x\`, `{"a":"x"}`},
		{`{"a":"x\u00`, `{"a":"x"}`},
		{`{"a":"x\"y`, `{"a":"x\"y"}`},
		{`{"a":["one","tw`, `{"a":["one","tw"]}`},
		{`{"a":"x","ke`, `{"a":"x"}`},
		{`{"a":"x", `, `{"a":"x"}`},
		{`{"a":{"b":1},`, `{"a":{"b":1}}`},
	} {
		got := string(closeJSON([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("closeJSON(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("closeJSON(%s) = %s is not valid JSON", tc.in, got)
		}
	}
}

func FuzzCloseJSON(f *testing.F) {
	f.Add(`{"type":"user","message":{"role":"user","content":"héllo \"x\" \u00e9 [1,2]"}}`, 30)
	f.Add(`{"a":[{"b":"c"},"d\\"],"e":"f"}`, 12)
	f.Fuzz(func(t *testing.T, line string, n int) {
		if !json.Valid([]byte(line)) || len(line) == 0 {
			return
		}
		n = max(0, min(n, len(line)))
		out := closeJSON([]byte(line[:n])) // must not panic
		if json.Valid(out) && len(out) > 0 && out[0] == '{' {
			var v map[string]any
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatalf("valid but does not decode: %v", err)
			}
		}
	})
}

// TestOverlongLineKeepsBoundedPrefix: a message of one 3×MaxLineBytes line
// is read as one user turn holding a prefix of its text, not dropped.
func TestOverlongLineKeepsBoundedPrefix(t *testing.T) {
	text := "I prefer pnpm. " + strings.Repeat("log line é ok; ", 3*MaxLineBytes/16)
	content, _ := json.Marshal(text)
	in := `{"type":"user","message":{"role":"user","content":` + string(content) + `},"uuid":"u1"}` + "\n" +
		`{"type":"user","message":{"role":"user","content":"next"}}` + "\n"
	var turns []learn.Turn
	st, err := Scan(strings.NewReader(in), nil, func(t learn.Turn) error { turns = append(turns, t); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if st.Malformed != 0 || len(turns) != 2 || turns[1].Content != "next" {
		t.Fatalf("stats %+v, %d turns", st, len(turns))
	}
	got := turns[0].Content
	if len(got) > MaxLineBytes || len(got) < MaxLineBytes/2 || !strings.HasPrefix(text, strings.TrimSuffix(got, "\uFFFD")) {
		t.Errorf("first turn: %d bytes, prefix %q", len(got), got[:min(40, len(got))])
	}
	if !utf8.ValidString(got) {
		t.Errorf("content is not valid UTF-8")
	}
}
