package redact

import (
	"bytes"
	"encoding/json"
)

// JSON returns raw with every secret in its strings redacted: each string
// value and key goes through [String], and a string value whose key names
// a secret (see the assignment rule: "password", "api_key", "clientSecret",
// …) becomes the marker unless it is empty or a placeholder.
//
// Raw without any hint of a secret nor a backslash escape is returned as is
// (the same slice, no allocation). Otherwise the result is the value
// re-encoded compactly, with object keys sorted, or raw itself when nothing
// needed redacting. Raw that is not valid JSON is redacted as text with
// [String]. A nil or empty raw is returned as is.
func JSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !jsonMayHaveSecret(raw) { // see prefilter.go
		return raw
	}
	return redactJSON(raw, String)
}

// redactJSON is JSON without the prefilter, redacting each string with str.
func redactJSON(raw json.RawMessage, str func(string) string) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return json.RawMessage(str(string(raw)))
	}
	v, changed := walk(v, "", str)
	if !changed {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil { // cannot happen: v holds only decoded JSON values
		return json.RawMessage(str(string(raw)))
	}
	return out
}

// walk redacts the strings of a decoded JSON value with str; key is the
// object key v sits under ("" outside objects). changed reports whether
// anything was replaced.
func walk(v any, key string, str func(string) string) (out any, changed bool) {
	switch x := v.(type) {
	case string:
		if key != "" {
			if kind, ok := secretName(key); ok && literalSecret(x) {
				return marker(kind), true
			}
		}
		r := str(x)
		return r, r != x
	case []any:
		for i, e := range x {
			r, c := walk(e, "", str)
			x[i] = r
			changed = changed || c
		}
		return x, changed
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			r, c := walk(e, k, str)
			nk := str(k)
			m[nk] = r
			changed = changed || c || nk != k
		}
		return m, changed
	}
	return v, false
}
