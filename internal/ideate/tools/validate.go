package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// schemas resolves every definition's input schema once. A schema that does
// not resolve is a programming error caught by the tests, so it panics.
func schemas() map[string]*jsonschema.Resolved {
	out := map[string]*jsonschema.Resolved{}
	for _, d := range All() {
		b, err := json.Marshal(d.InputSchema)
		if err != nil {
			panic(fmt.Sprintf("tools: marshal schema of %s: %v", d.Name, err))
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			panic(fmt.Sprintf("tools: parse schema of %s: %v", d.Name, err))
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			panic(fmt.Sprintf("tools: resolve schema of %s: %v", d.Name, err))
		}
		out[d.Name] = rs
	}
	return out
}

// validateInput checks input against the tool's declared JSON Schema before
// any decoding: a malformed or non-object input, a wrong type, a value out of
// an enum or range, or a missing required field is a VALIDATION_ERROR whose
// message gives the model the field path and the rule broken.
func validateInput(rs *jsonschema.Resolved, input json.RawMessage) *core.Error {
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return core.Validation(core.FieldError{Field: "input", Message: "is not valid JSON", Type: "json_invalid"})
	}
	if v == nil {
		v = map[string]any{} // a tool without arguments may be sent null
	}
	if _, isObj := v.(map[string]any); !isObj {
		return core.Validation(core.FieldError{Field: "input", Message: "must be a JSON object", Type: "type"})
	}
	if err := rs.Validate(v); err != nil {
		return core.Validation(schemaFieldErrors(err)...)
	}
	return nil
}

// schemaFieldErrors turns the validator's nested "validating <path>: ..."
// message into the innermost field path and the rule it broke; a missing
// required property is reported on the property itself, one per property.
func schemaFieldErrors(err error) []core.FieldError {
	msg, path := err.Error(), ""
	for strings.HasPrefix(msg, "validating ") {
		rest := strings.TrimPrefix(msg, "validating ")
		i := strings.Index(rest, ": ")
		if i < 0 {
			break
		}
		if p := rest[:i]; p != "root" {
			path = p
		}
		msg = rest[i+2:]
	}
	field := strings.NewReplacer("/properties/", ".", "/items", "[]").Replace(path)
	field = strings.TrimPrefix(field, ".")
	if field == "" {
		field = "input"
	}
	rule, _, _ := strings.Cut(msg, ":")
	if names, ok := strings.CutPrefix(msg, "required: missing properties: "); ok {
		var missing []string
		// The names are printed with %q: ["a" "b"] is JSON once commas are in.
		if json.Unmarshal([]byte(strings.ReplaceAll(names, `" "`, `","`)), &missing) == nil && len(missing) > 0 {
			out := make([]core.FieldError, 0, len(missing))
			for _, m := range missing {
				out = append(out, core.FieldError{Field: join(field, m), Message: "is required", Type: "missing"})
			}
			return out
		}
	}
	return []core.FieldError{{Field: field, Message: msg, Type: rule}}
}

func join(parent, name string) string {
	if parent == "input" {
		return name
	}
	return parent + "." + name
}
