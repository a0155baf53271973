package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// wireKeys are the JSON Schema keywords the API's structured outputs accept
// (the same list the SDK's own schema transform keeps).
var wireKeys = map[string]bool{
	"$ref": true, "$defs": true, "type": true, "anyOf": true, "allOf": true,
	"description": true, "title": true, "enum": true, "const": true,
	"properties": true, "additionalProperties": true, "required": true,
	"items": true, "minItems": true, "format": true, "pattern": true,
}

var wireFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}

// WireSchema returns the form of a JSON Schema (as decoded JSON) that the
// Messages API's constrained decoding accepts. It is pure and does not modify
// s:
//   - objects get additionalProperties: false;
//   - "type": ["null", T] becomes anyOf [{…type T…}, {type: null}];
//   - oneOf becomes anyOf;
//   - keywords outside the supported set (minimum, maximum, maxItems,
//     minLength, …), minItems other than 0/1 and unsupported string formats
//     are removed and appended to the description as "{key: value, …}", so
//     the model still reads them; the local validation keeps enforcing them.
func WireSchema(s map[string]any) map[string]any {
	if s == nil {
		return nil
	}
	out := make(map[string]any, len(s))
	extras := map[string]any{}
	for k, v := range s {
		switch {
		case k == "oneOf":
			out["anyOf"] = wireList(v)
		case !wireKeys[k]:
			extras[k] = v
		case k == "properties" || k == "$defs":
			out[k] = wireMap(v)
		case k == "additionalProperties" && isNotAnything(v):
			out[k] = false
		case k == "items" || k == "additionalProperties":
			if m, ok := v.(map[string]any); ok {
				out[k] = WireSchema(m)
			} else {
				out[k] = v
			}
		case k == "anyOf" || k == "allOf":
			out[k] = wireList(v)
		default:
			out[k] = v
		}
	}
	if n, ok := out["minItems"].(float64); ok && n != 0 && n != 1 {
		extras["minItems"] = n
		delete(out, "minItems")
	}
	if f, ok := out["format"].(string); ok && !slices.Contains(wireFormats, f) {
		extras["format"] = f
		delete(out, "format")
	}
	if isObject(out) {
		if _, ok := out["properties"]; ok || out["additionalProperties"] == nil {
			out["additionalProperties"] = false
		}
	}
	if len(extras) > 0 {
		describe(out, extras)
	}
	return splitNullable(out)
}

func wireMap(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, sub := range m {
		if sm, ok := sub.(map[string]any); ok {
			out[k] = WireSchema(sm)
		} else {
			out[k] = sub
		}
	}
	return out
}

func wireList(v any) any {
	l, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, 0, len(l))
	for _, sub := range l {
		if sm, ok := sub.(map[string]any); ok {
			out = append(out, WireSchema(sm))
		} else {
			out = append(out, sub)
		}
	}
	return out
}

func isObject(s map[string]any) bool {
	if s["type"] == "object" {
		return true
	}
	if ts, ok := s["type"].([]any); ok {
		return slices.Contains(ts, any("object"))
	}
	return false
}

// isNotAnything reports whether v is jsonschema-go's closed form {"not": {}}.
func isNotAnything(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return false
	}
	not, ok := m["not"].(map[string]any)
	return ok && len(not) == 0
}

// describe appends "{key: value, …}" (sorted) to s's description.
func describe(s map[string]any, extras map[string]any) {
	keys := make([]string, 0, len(extras))
	for k := range extras {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := extras[k]
		if f, ok := v.(float64); ok && f == float64(int64(f)) {
			v = int64(f)
		} else if _, ok := v.(string); !ok {
			b, _ := json.Marshal(v)
			v = string(b)
		}
		parts = append(parts, fmt.Sprintf("%s: %v", k, v))
	}
	extra := "{" + strings.Join(parts, ", ") + "}"
	if d, _ := s["description"].(string); d != "" {
		s["description"] = d + "\n\n" + extra
	} else {
		s["description"] = extra
	}
}

// splitNullable turns "type": ["null", T] into anyOf [{…T…}, {"type": "null"}].
// The description stays on the outer schema; a null in enum is dropped from
// the T branch.
func splitNullable(s map[string]any) map[string]any {
	ts, ok := s["type"].([]any)
	if !ok {
		return s
	}
	var rest []any
	for _, t := range ts {
		if t != "null" {
			rest = append(rest, t)
		}
	}
	if len(rest) == len(ts) {
		return s
	}
	branch := make(map[string]any, len(s))
	outer := map[string]any{}
	for k, v := range s {
		switch k {
		case "description", "title":
			outer[k] = v
		case "type":
			if len(rest) == 1 {
				branch[k] = rest[0]
			} else {
				branch[k] = rest
			}
		case "enum":
			if l, ok := v.([]any); ok {
				branch[k] = slices.DeleteFunc(slices.Clone(l), func(e any) bool { return e == nil })
			}
		default:
			branch[k] = v
		}
	}
	outer["anyOf"] = []any{branch, map[string]any{"type": "null"}}
	return outer
}

// orderedParam returns wire as the SDK's schema parameter with every
// object's properties in Go field order (full's PropertyOrder) instead of
// encoding/json's sorted map order: the API generates properties in schema
// order, and the spec's schemas put the main answer before its details.
func orderedParam(wire map[string]any, full *jsonschema.Schema) map[string]any {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(marshalOrdered(wire, full), &top); err != nil {
		return wire
	}
	out := make(map[string]any, len(top))
	for k, v := range top {
		out[k] = v
	}
	return out
}

// marshalOrdered encodes v like encoding/json, except that "properties"
// follow s.PropertyOrder (recursively through items and anyOf branches).
func marshalOrdered(v any, s *jsonschema.Schema) []byte {
	m, ok := v.(map[string]any)
	if !ok || s == nil {
		b, _ := json.Marshal(v)
		return b
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		switch k {
		case "properties":
			buf.Write(marshalProps(m[k], s))
		case "items":
			buf.Write(marshalOrdered(m[k], s.Items))
		case "anyOf":
			l, _ := m[k].([]any)
			buf.WriteByte('[')
			for j, branch := range l {
				if j > 0 {
					buf.WriteByte(',')
				}
				buf.Write(marshalOrdered(branch, s))
			}
			buf.WriteByte(']')
		default:
			b, _ := json.Marshal(m[k])
			buf.Write(b)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func marshalProps(v any, s *jsonschema.Schema) []byte {
	props, ok := v.(map[string]any)
	if !ok {
		b, _ := json.Marshal(v)
		return b
	}
	order := slices.Clone(s.PropertyOrder)
	var rest []string
	for k := range props {
		if !slices.Contains(order, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	var buf bytes.Buffer
	buf.WriteByte('{')
	n := 0
	for _, k := range append(order, rest...) {
		p, ok := props[k]
		if !ok {
			continue
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(marshalOrdered(p, s.Properties[k]))
	}
	buf.WriteByte('}')
	return buf.Bytes()
}
