package transcript

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestRawField(t *testing.T) {
	tests := []struct{ obj, key, want string }{
		{`{"type":"tool_result","content":"a\"b\\","is_error":true}`, "content", `"a\"b\\"`},
		{`{ "content" : [ {"type":"text","text":"x]}"} ] , "k":1}`, "content", `[ {"type":"text","text":"x]}"} ]`},
		{`{"a":{"content":"nested"},"content":null}`, "content", `null`},
		{`{"n": -1.5e3}`, "n", `-1.5e3`},
		{`{"a":1}`, "content", ``},
		{`["content"]`, "content", ``},
	}
	for _, tt := range tests {
		if got := rawField(tt.obj, tt.key); got != tt.want {
			t.Errorf("rawField(%s, %s): got %q, want %q", tt.obj, tt.key, got, tt.want)
		}
	}
}

// FuzzRawField checks rawField against gjson on valid objects.
func FuzzRawField(f *testing.F) {
	f.Add(`{"type":"tool_result","content":"a\"b","is_error":true}`)
	f.Add(`{"content":[{"type":"text","text":"x"}],"tool_use_id":"t"}`)
	f.Add(`{"content" :  {"x" : [1, "]"]} }`)
	f.Fuzz(func(t *testing.T, obj string) {
		if !gjson.Valid(obj) || !gjson.Parse(obj).IsObject() {
			return
		}
		want := ""
		gjson.Parse(obj).ForEach(func(k, v gjson.Result) bool {
			if k.String() == "content" && want == "" && k.Raw == `"content"` {
				want = v.Raw
				return false
			}
			return true
		})
		if got := rawField(obj, "content"); got != want && want != "" {
			t.Errorf("rawField(%q): got %q, gjson %q", obj, got, want)
		}
	})
}
