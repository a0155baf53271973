package transcript

import (
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// tapeOf validates s recording at most limit nodes (0: maxNodes); ok is
// false when s is not valid JSON.
func tapeOf(s string, limit int) (*tape, bool) {
	b := []byte(s)
	t := &tape{limit: limit}
	t.reset(b)
	return t, t.valid(b)
}

// FuzzFields checks the tape's walk (members, fields, raw fields,
// elements, decoded strings) against gjson and against the scanning
// walkers it replaced, on every object and array of valid JSON, with the
// whole line on the tape and with recording stopped early (the walk then
// scans); and skipString against the byte loop it replaced on any input,
// at any quote.
func FuzzFields(f *testing.F) {
	jsonSeeds(f)
	f.Add(`{"type":"tool_result","content":"` + strings.Repeat(`ab\"c\\`, 40) + `","is_error":true,"x":["` + strings.Repeat("y", 300) + `"]}`)
	f.Add(` {"c\u006fntent" : [ {"text":1}, "x", [ ] , { } ], "content":{"a":{"type":"text"}} } `)
	f.Fuzz(func(t *testing.T, s string) {
		for i := 0; i < len(s); i++ {
			if s[i] == '"' {
				if got, want := skipString(s, i), oldSkipString(s, i); got != want {
					t.Fatalf("skipString(%q, %d) = %d, want %d", s, i, got, want)
				}
			}
		}
		if !gjson.Valid(s) {
			return
		}
		for _, limit := range []int{0, 1, 2, 5} {
			tp, ok := tapeOf(s, limit)
			if !ok {
				t.Fatalf("valid JSON %q refused", s)
			}
			checkNodes(t, tp)
			if got, want := tp.raw(tp.root()), strings.Trim(s, " \t\r\n"); got != want {
				t.Fatalf("root of %q = %q", s, got)
			}
			checkValue(t, tp, tp.root())
		}
	})
}

// checkNodes checks what the validator recorded: values in the order they
// start, each ending where scanning ends it, a container's next index past
// everything inside it.
func checkNodes(t *testing.T, tp *tape) {
	t.Helper()
	for n, nd := range tp.nodes {
		if end := skipValue(tp.line, int(nd.start)); int(nd.end) != end {
			t.Fatalf("node %d of %q: end %d, scanning says %d", n, tp.line, nd.end, end)
		}
		if n > 0 && nd.start <= tp.nodes[n-1].start {
			t.Fatalf("node %d of %q starts at %d, before the one before it", n, tp.line, nd.start)
		}
		if nd.next >= 0 && (int(nd.next) <= n || int(nd.next) < len(tp.nodes) && tp.nodes[nd.next].start < nd.end) {
			t.Fatalf("node %d of %q: next %d", n, tp.line, nd.next)
		}
		if nd.escaped != (tp.line[nd.start] == '"' && strings.IndexByte(tp.line[nd.start:nd.end], '\\') >= 0) {
			t.Fatalf("node %d of %q: escaped %v", n, tp.line, nd.escaped)
		}
	}
}

// checkValue compares the tape's walk of v and of every value inside it
// with gjson and the old walkers.
func checkValue(t *testing.T, tp *tape, v val) {
	t.Helper()
	raw := tp.raw(v)
	type kv struct{ k, v string }
	var got, old, want []kv
	var inner []val
	tp.member(v, func(k, value val) bool {
		got = append(got, kv{tp.str(k), tp.raw(value)})
		inner = append(inner, value)
		return true
	})
	oldMembers(raw, func(k, value string) bool { old = append(old, kv{k, value}); return true })
	if r := gjson.Parse(raw); r.IsObject() {
		r.ForEach(func(k, value gjson.Result) bool { want = append(want, kv{k.Str, value.Raw}); return true })
	}
	if !slices.Equal(got, want) || !slices.Equal(got, old) {
		t.Fatalf("members of %q = %q, gjson %q, old %q", raw, got, want, old)
	}
	keys := []string{"type", "content", "message", "is_error", "text", "role", "c\\u006fntent"}
	for _, m := range got {
		keys = append(keys, m.k)
	}
	for _, k := range keys {
		checkField(t, tp, v, k)
	}
	var ge, we []string
	tp.elements(v, func(e val) bool {
		ge = append(ge, tp.raw(e))
		if tp.line[v.start] == '[' {
			inner = append(inner, e)
		}
		return true
	})
	oldElements(raw, func(e gjson.Result) bool { we = append(we, e.Raw); return true })
	if !slices.Equal(ge, we) {
		t.Fatalf("elements of %q = %q, old %q", raw, ge, we)
	}
	for _, e := range inner {
		checkValue(t, tp, e)
	}
}

// checkField compares the tape's lookups of the member name of v with
// gjson.Get (for a name that is a plain path) and the old walkers.
func checkField(t *testing.T, tp *tape, v val, name string) {
	t.Helper()
	raw := tp.raw(v)
	f := tp.field(v, name)
	want := oldGetField(raw, name)
	if isPlainKey(name) {
		if g := gjson.Get(raw, name); g.Raw != want.Raw || g.Type != want.Type {
			t.Fatalf("old getField(%q, %q) = %+v, gjson %+v", raw, name, want, g)
		}
	}
	if tp.raw(f) != want.Raw || tp.str(f) != want.Str || tp.text(f) != want.String() || tp.isTrue(f) != (want.Type == gjson.True) ||
		tp.isString(f) != (want.Type == gjson.String) || tp.isObject(f) != want.IsObject() {
		t.Fatalf("field(%q, %q) = %q (str %q, text %q), old %+v", raw, name, tp.raw(f), tp.str(f), tp.text(f), want)
	}
	if got, want := tp.raw(tp.rawField(v, name)), oldRawField(raw, name); got != want {
		t.Fatalf("rawField(%q, %q) = %q, old %q", raw, name, got, want)
	}
}
