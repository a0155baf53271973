package llm

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schema is the JSON Schema of a response type in two forms: Full is the
// contract the reply is validated against locally; Wire is what the API's
// constrained decoder receives (the subset structured outputs supports, with
// unsupported constraints such as minimum/maximum moved into descriptions,
// every object closed with additionalProperties false, and nullable types as
// anyOf with null).
type Schema struct {
	Full     *jsonschema.Schema
	Wire     map[string]any
	resolved *jsonschema.Resolved
	param    map[string]any // Wire with properties in field order, for the SDK
}

// SchemaCustomizer is implemented (on the value receiver) by response types
// that need more than Go types say: enums, numeric ranges, nullable slices,
// item limits. CustomizeSchema edits the schema jsonschema.For generated; use
// [Constrain].
type SchemaCustomizer interface {
	CustomizeSchema(s *jsonschema.Schema) error
}

var schemaCache sync.Map // reflect.Type → schemaEntry

type schemaEntry struct {
	s   *Schema
	err error
}

// SchemaFor returns the Schema of T: jsonschema.For[T], with Go slices made
// non-nullable (a reply must send an array), then T's CustomizeSchema if it
// implements SchemaCustomizer. Results are cached per type.
func SchemaFor[T any]() (*Schema, error) {
	t := reflect.TypeFor[T]()
	if e, ok := schemaCache.Load(t); ok {
		return e.(schemaEntry).s, e.(schemaEntry).err
	}
	s, err := buildSchema[T]()
	schemaCache.Store(t, schemaEntry{s, err})
	return s, err
}

func buildSchema[T any]() (*Schema, error) {
	full, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, fmt.Errorf("llm: schema: %w", err)
	}
	walkSchema(full, func(s *jsonschema.Schema) {
		if len(s.Types) == 2 && s.Types[0] == "null" && s.Types[1] == "array" {
			s.Type, s.Types = "array", nil
		}
	})
	var zero T
	if c, ok := any(zero).(SchemaCustomizer); ok {
		if err := c.CustomizeSchema(full); err != nil {
			return nil, fmt.Errorf("llm: schema of %T: %w", zero, err)
		}
	}
	resolved, err := full.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("llm: resolve schema of %T: %w", zero, err)
	}
	b, err := json.Marshal(full)
	if err != nil {
		return nil, fmt.Errorf("llm: marshal schema of %T: %w", zero, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("llm: schema of %T: %w", zero, err)
	}
	wire := WireSchema(m)
	return &Schema{Full: full, Wire: wire, resolved: resolved, param: orderedParam(wire, full)}, nil
}

// Validate decodes text as JSON, validates it against the full schema and
// decodes it into out. It returns an *InvalidReplyError on any mismatch.
func (s *Schema) Validate(text string, out any) error {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return &InvalidReplyError{Text: text, Reason: "not JSON", Err: err}
	}
	if err := s.resolved.Validate(v); err != nil {
		return &InvalidReplyError{Text: text, Reason: "schema violation", Err: err}
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		return &InvalidReplyError{Text: text, Reason: "decode", Err: err}
	}
	return nil
}

// walkSchema calls f on s and every schema nested in it.
func walkSchema(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	f(s)
	for _, p := range s.Properties {
		walkSchema(p, f)
	}
	walkSchema(s.Items, f)
	walkSchema(s.AdditionalProperties, f)
	for _, group := range [][]*jsonschema.Schema{s.AnyOf, s.AllOf, s.OneOf} {
		for _, sub := range group {
			walkSchema(sub, f)
		}
	}
	for _, d := range s.Defs {
		walkSchema(d, f)
	}
}

// Constraint is one edit of a schema at a path; see [Constrain].
type Constraint struct {
	Path  string
	apply func(*jsonschema.Schema)
}

// Constrain applies cs to s. A path names a property by dotted JSON names,
// "[]" stepping into array items: "phases[].hints.file_hints[].style". An
// unknown path is an error.
func Constrain(s *jsonschema.Schema, cs ...Constraint) error {
	for _, c := range cs {
		sub, err := Field(s, c.Path)
		if err != nil {
			return err
		}
		c.apply(sub)
	}
	return nil
}

// Field returns the sub-schema at path (see [Constrain]); "" is s itself.
func Field(s *jsonschema.Schema, path string) (*jsonschema.Schema, error) {
	cur := s
	for _, part := range strings.Split(path, ".") {
		name, items := strings.CutSuffix(part, "[]")
		if name != "" {
			next := cur.Properties[name]
			if next == nil {
				return nil, fmt.Errorf("schema path %q: no property %q", path, name)
			}
			cur = next
		}
		for items {
			if cur.Items == nil {
				return nil, fmt.Errorf("schema path %q: %q is not an array", path, name)
			}
			cur = cur.Items
			name, items = strings.CutSuffix(name, "[]")
		}
	}
	return cur, nil
}

// Enum restricts the string at path to values (null stays allowed when the
// field is nullable).
func Enum(path string, values ...string) Constraint {
	return Constraint{Path: path, apply: func(s *jsonschema.Schema) {
		s.Enum = nil
		for _, v := range values {
			s.Enum = append(s.Enum, v)
		}
		if nullable(s) {
			s.Enum = append(s.Enum, nil)
		}
	}}
}

// Range restricts the number at path to [min, max].
func Range(path string, min, max float64) Constraint {
	return Constraint{Path: path, apply: func(s *jsonschema.Schema) { s.Minimum, s.Maximum = &min, &max }}
}

// Min restricts the number at path to ≥ min.
func Min(path string, min float64) Constraint {
	return Constraint{Path: path, apply: func(s *jsonschema.Schema) { s.Minimum = &min }}
}

// MaxItems limits the array at path to n items.
func MaxItems(path string, n int) Constraint {
	return Constraint{Path: path, apply: func(s *jsonschema.Schema) { s.MaxItems = &n }}
}

// Format sets the string format at path, e.g. "uri".
func Format(path, format string) Constraint {
	return Constraint{Path: path, apply: func(s *jsonschema.Schema) { s.Format = format }}
}

// Nullable allows null at path (for slices, which SchemaFor makes
// non-nullable, and for values held in non-pointer fields).
func Nullable(path string) Constraint {
	return Constraint{Path: path, apply: func(s *jsonschema.Schema) {
		if nullable(s) {
			return
		}
		if s.Type != "" {
			s.Types, s.Type = []string{"null", s.Type}, ""
		}
		if s.Enum != nil {
			s.Enum = append(s.Enum, nil)
		}
	}}
}

func nullable(s *jsonschema.Schema) bool {
	for _, t := range s.Types {
		if t == "null" {
			return true
		}
	}
	return s.Type == "null"
}
