package mcpapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

type flatIn struct {
	S string  `json:"s" jsonschema:"a string"`
	I int     `json:"i,omitempty"`
	F float64 `json:"f,omitempty"`
	B bool    `json:"b,omitempty"`
}

// flatSchemas are the schemas FuzzFlatSchema checks, all flat.
func flatSchemas(t testing.TB) map[string]*jsonschema.Schema {
	t.Helper()
	open := schemaFor[flatIn]()
	open.AdditionalProperties = nil
	return map[string]*jsonschema.Schema{"PathIn": schemaFor[PathIn](), "OptionalPathIn": schemaFor[OptionalPathIn](),
		"EmptyIn": schemaFor[EmptyIn](), "flatIn": schemaFor[flatIn](), "open flatIn": open}
}

func TestCompileFlat(t *testing.T) {
	for name, s := range flatSchemas(t) {
		if compileFlat(s) == nil {
			t.Errorf("%s: not compiled, want a flat check", name)
		}
	}
	notFlat := map[string]*jsonschema.Schema{"StateIn": schemaFor[StateIn](), "HintFilesIn": schemaFor[HintFilesIn]()}
	enum := schemaFor[PathIn]()
	enum.Properties["path"].Enum = []any{"a"}
	notFlat["enum"] = enum
	withDefault := schemaFor[flatIn]()
	withDefault.Properties["i"].Default = json.RawMessage("3")
	notFlat["default"] = withDefault
	for name, s := range notFlat {
		if compileFlat(s) != nil {
			t.Errorf("%s: compiled, want nil (not flat)", name)
		}
	}
}

// FuzzFlatSchema: whatever the flat check accepts, the resolved schema
// accepts.
func FuzzFlatSchema(f *testing.F) {
	for _, s := range []string{`{}`, `{"path":"a"}`, `{"path":1}`, `{"s":"x","i":2,"f":1.5,"b":true}`, `{"s":"x","i":2.5}`,
		`{"s":"x","i":1e300}`, `{"s":"x","z":null}`, `{"path":null}`, `{"s":"x","i":-0}`} {
		f.Add(s)
	}
	schemas := flatSchemas(f)
	type compiled struct {
		flat     *flatSchema
		resolved *jsonschema.Resolved
	}
	var all []compiled
	for _, s := range schemas {
		r, err := s.Resolve(nil)
		if err != nil {
			f.Fatal(err)
		}
		all = append(all, compiled{compileFlat(s), r})
	}
	f.Fuzz(func(t *testing.T, args string) {
		var m map[string]any
		if json.Unmarshal([]byte(args), &m) != nil || m == nil {
			return
		}
		for _, c := range all {
			var v any = m
			if c.flat.valid(m) {
				if err := c.resolved.Validate(&v); err != nil {
					t.Fatalf("%s: flat check accepts, Validate says %v", args, err)
				}
			}
		}
	})
}

// FuzzFlatRaw: whatever validRaw accepts, the decoding path (decodeMap)
// accepts and returns as it was sent, as decode then does; anything else
// decode hands to decodeMap.
func FuzzFlatRaw(f *testing.F) {
	for _, s := range []string{`{}`, ` { "path" : "a" } `, `{"path":1}`, `{"s":"x","i":2,"f":1.5,"b":true}`, `{"s":"x","i":2.5}`,
		`{"s":"x","i":1e300}`, `{"s":"x","z":null}`, `{"path":null}`, `{"s":"x","i":-0}`, `{"s":"x","s":1}`, `{"p\u0061th":"a"}`,
		`{"path":"a",}`, `{"path":"a"} x`, `[]`, `{"s":"\ud800","zz":[1]}`, `{"s":"x","f":` + strings.Repeat("9", 320) + `}`, `{"Path":"a"}`} {
		f.Add(s)
	}
	var all []inputSchema
	for _, s := range flatSchemas(f) {
		r, err := s.Resolve(nil)
		if err != nil {
			f.Fatal(err)
		}
		all = append(all, inputSchema{resolved: resolvedNow(r), flat: compileFlat(s)})
	}
	f.Fuzz(func(t *testing.T, args string) {
		raw := json.RawMessage(args)
		for _, s := range all {
			if !s.flat.validRaw(raw) {
				continue
			}
			if got, err := s.decodeMap(raw); err != nil || string(got) != args {
				t.Fatalf("%s: validRaw accepts, the decoding path gives %s, %v", args, got, err)
			}
			if got, err := s.decode(raw); err != nil || string(got) != args {
				t.Fatalf("%s: decode gives %s, %v, want it unchanged", args, got, err)
			}
		}
	})
}

// validRaw's verdict on the edge cases: each rule just inside and just
// outside.
func TestFlatValidRaw(t *testing.T) {
	schemas := flatSchemas(t)
	for _, tc := range []struct {
		schema, args string
		want         bool
	}{
		{"PathIn", `{"path":"src/a.ts"}`, true},
		{"PathIn", " \n{ \"path\" :\t\"a\" }\r\n", true},
		{"PathIn", `{"path":"a\n\u00e9"}`, true},
		{"PathIn", `{"path":"a","path":"b"}`, true},
		{"PathIn", `{}`, false},                 // required
		{"PathIn", `{"path":"a","x":1}`, false}, // closed
		{"PathIn", `{"path":1}`, false},         // type
		{"PathIn", `{"path":null}`, false},      // type
		{"PathIn", `{"p\u0061th":"a"}`, false},  // escaped key
		{"PathIn", `{"path":"a"}x`, false},      // trailing data
		{"PathIn", `{"path":"a",}`, false},      // syntax
		{"PathIn", `{"path":"a"`, false},        // syntax
		{"PathIn", `{"path":"a\x"}`, false},     // bad escape
		{"EmptyIn", `{}`, true},
		{"EmptyIn", `{ }`, true},
		{"flatIn", `{"s":"x","i":-12,"f":1.5,"b":false}`, true},
		{"flatIn", `{"s":"x","i":1.5}`, false},    // integer with a fraction
		{"flatIn", `{"s":"x","f":1e3}`, false},    // exponent
		{"flatIn", `{"s":"x","f":01}`, false},     // leading zero
		{"flatIn", `{"s":"x","b":"true"}`, false}, // type
		{"open flatIn", `{"s":"x","z":null,"y":true,"w":"v","v":-1.25}`, true},
		{"open flatIn", `{"s":"x","z":{}}`, false}, // nested
		{"open flatIn", `{"s":"x","z":[1]}`, false},
		{"open flatIn", `{"s":"x","f":` + strings.Repeat("9", maxPlainNumber) + `}`, true},
		{"open flatIn", `{"s":"x","f":` + strings.Repeat("9", maxPlainNumber+1) + `}`, false},
	} {
		if got := compileFlat(schemas[tc.schema]).validRaw([]byte(tc.args)); got != tc.want {
			t.Errorf("%s %s: got %v, want %v", tc.schema, tc.args, got, tc.want)
		}
	}
}
