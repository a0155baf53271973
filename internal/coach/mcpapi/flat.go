package mcpapi

import (
	"encoding/json"
	"math"

	"github.com/google/jsonschema-go/jsonschema"
)

// flatSchema is a precompiled check for the common input schema: an
// object whose properties each have one primitive type and nothing else
// to check (a description or title at most), some of them required, and
// either no other properties (additionalProperties false) or any. Most
// tools' inputs (PathIn, EmptyIn, …) are such objects.
//
// It only ever says "valid": when [flatSchema.valid] reports false, the
// arguments go to the resolved schema's Validate, whose error text the
// client gets, as before. FuzzFlatSchema checks that whatever it accepts,
// Validate accepts.
type flatSchema struct {
	props    map[string]string // property name → "string", "integer", "number" or "boolean"
	required []string
	closed   bool // additionalProperties: false
}

// compileFlat returns the flat check of sch, or nil when sch is not flat.
func compileFlat(sch *jsonschema.Schema) *flatSchema {
	raw, err := json.Marshal(sch)
	if err != nil {
		return nil
	}
	return compileFlatJSON(raw)
}

// compileFlatJSON is [compileFlat] of a schema's JSON.
func compileFlatJSON(raw []byte) *flatSchema {
	var root map[string]any
	if json.Unmarshal(raw, &root) != nil || root["type"] != "object" {
		return nil
	}
	f := &flatSchema{props: map[string]string{}}
	for k, v := range root {
		switch k {
		case "type", "description", "title":
		case "additionalProperties":
			if v != false && !isFalseSchema(v) {
				return nil
			}
			f.closed = true
		case "required":
			list, _ := v.([]any)
			for _, r := range list {
				name, ok := r.(string)
				if !ok {
					return nil
				}
				f.required = append(f.required, name)
			}
		case "properties":
			props, _ := v.(map[string]any)
			for name, p := range props {
				typ := primitiveType(p)
				if typ == "" {
					return nil
				}
				f.props[name] = typ
			}
		default:
			return nil
		}
	}
	return f
}

// isFalseSchema reports whether v is {"not": {}}, the schema nothing matches.
func isFalseSchema(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return false
	}
	not, ok := m["not"].(map[string]any)
	return ok && len(not) == 0
}

// primitiveType returns the type of a property schema that has one
// primitive type and nothing else to check, or "".
func primitiveType(p any) string {
	m, ok := p.(map[string]any)
	if !ok {
		return ""
	}
	typ := ""
	for k, v := range m {
		switch k {
		case "description", "title":
		case "type":
			s, _ := v.(string)
			switch s {
			case "string", "integer", "number", "boolean":
				typ = s
			default:
				return ""
			}
		default:
			return ""
		}
	}
	return typ
}

// valid reports whether args (as encoding/json decodes an object) surely
// match the schema.
func (f *flatSchema) valid(args map[string]any) bool {
	for k, v := range args {
		typ, ok := f.props[k]
		if !ok {
			if f.closed {
				return false
			}
			continue
		}
		switch typ {
		case "string":
			_, ok = v.(string)
		case "boolean":
			_, ok = v.(bool)
		case "number":
			_, ok = v.(float64)
		case "integer":
			var n float64
			n, ok = v.(float64)
			ok = ok && !math.IsInf(n, 0) && n == math.Trunc(n)
		}
		if !ok {
			return false
		}
	}
	for _, r := range f.required {
		if _, ok := args[r]; !ok {
			return false
		}
	}
	return true
}
