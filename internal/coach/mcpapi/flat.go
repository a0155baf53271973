package mcpapi

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/jsonscan"
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
	closed   bool           // additionalProperties: false
	reqBit   map[string]int // required property → its bit in validRaw's mask; nil when more than 64
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
	if len(f.required) <= 64 {
		f.reqBit = map[string]int{}
		for _, r := range f.required {
			if _, dup := f.reqBit[r]; !dup {
				f.reqBit[r] = len(f.reqBit)
			}
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

// validRaw reports whether raw, the arguments as sent, surely match the
// schema, reading them once without decoding them into a map: an object
// whose keys, written without escapes, are each a property with a value
// of its type (a string; true or false; a number of at most 300 bytes
// without an exponent — for an integer property, without a fraction
// either) or, when the schema
// is open, an unknown key with a string, a literal or such a number;
// every required property present; nothing after the object. Like
// [flatSchema.valid] it only ever says "valid": nested values, escaped
// keys, exponents (which may not fit a float64) and anything malformed
// report false, and the arguments are then decoded and checked as before.
// FuzzFlatRaw checks that whatever it accepts, the decoding path accepts.
func (f *flatSchema) validRaw(raw []byte) bool {
	i := jsonscan.Space(raw, 0)
	if f.reqBit == nil || i >= len(raw) || raw[i] != '{' {
		return false
	}
	var seen uint64
	i = jsonscan.Space(raw, i+1)
	for first := true; ; first = false {
		if i < len(raw) && raw[i] == '}' && first {
			break
		}
		end, escaped := jsonscan.StringEnd(raw, i)
		if end < 0 || escaped {
			return false
		}
		key := raw[i+1 : end-1]
		if i = jsonscan.Space(raw, end); i >= len(raw) || raw[i] != ':' {
			return false
		}
		typ, known := f.props[string(key)]
		if !known && f.closed {
			return false
		}
		if i = primitiveEnd(raw, jsonscan.Space(raw, i+1), typ); i < 0 {
			return false
		}
		if bit, ok := f.reqBit[string(key)]; ok {
			seen |= 1 << bit
		}
		if i = jsonscan.Space(raw, i); i < len(raw) && raw[i] == ',' {
			i = jsonscan.Space(raw, i+1)
			continue
		}
		if i >= len(raw) || raw[i] != '}' {
			return false
		}
		break
	}
	return jsonscan.Space(raw, i+1) == len(raw) && seen == 1<<len(f.reqBit)-1
}

// maxPlainNumber is the longest number validRaw reads: any shorter one
// without an exponent fits a float64, as decoding into a map needs.
const maxPlainNumber = 300

// primitiveEnd returns the index after the value at i when it is of type
// typ as validRaw reads it ("" for any string, literal or number), -1
// otherwise.
func primitiveEnd(b []byte, i int, typ string) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"' && (typ == "string" || typ == ""):
		end, _ := jsonscan.StringEnd(b, i)
		return end
	case c == 't' && (typ == "boolean" || typ == ""):
		return jsonscan.Literal(b, i, "true")
	case c == 'f' && (typ == "boolean" || typ == ""):
		return jsonscan.Literal(b, i, "false")
	case c == 'n' && typ == "":
		return jsonscan.Literal(b, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		if typ != "number" && typ != "integer" && typ != "" {
			return -1
		}
		end, integer := jsonscan.Number(b, i)
		if end < 0 || end-i > maxPlainNumber || bytes.ContainsAny(b[i:end], "eE") || typ == "integer" && !integer {
			return -1
		}
		return end
	}
	return -1
}
