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
// The result is raw itself (the same slice) when nothing needed redacting,
// else the value re-encoded compactly, with object keys sorted. Raw that
// is not valid JSON is redacted as text with [String]. A nil or empty raw
// is returned as is.
func JSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return json.RawMessage(String(string(raw)))
	}
	v, changed := walk(v, "")
	if !changed {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil { // cannot happen: v holds only decoded JSON values
		return json.RawMessage(String(string(raw)))
	}
	return out
}

// walk redacts the strings of a decoded JSON value; key is the object key
// v sits under ("" outside objects). changed reports whether anything was
// replaced.
func walk(v any, key string) (out any, changed bool) {
	switch x := v.(type) {
	case string:
		if key != "" {
			if kind, ok := secretName(key); ok && literalSecret(x) {
				return marker(kind), true
			}
		}
		r := String(x)
		return r, r != x
	case []any:
		for i, e := range x {
			r, c := walk(e, "")
			x[i] = r
			changed = changed || c
		}
		return x, changed
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			r, c := walk(e, k)
			nk := String(k)
			m[nk] = r
			changed = changed || c || nk != k
		}
		return m, changed
	}
	return v, false
}
