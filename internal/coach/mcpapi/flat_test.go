package mcpapi

import (
	"encoding/json"
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
