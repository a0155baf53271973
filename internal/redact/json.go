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
// Raw without any hint of a secret is returned as is (the same slice, no
// allocation). Otherwise the result is the value re-encoded compactly, with
// object keys sorted, or raw itself when nothing needed redacting. Raw that
// is not valid JSON is redacted as text with [String]. A nil or empty raw
// is returned as is.
func JSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !jsonHinted(raw) {
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

// jsonHinted reports whether raw may hold a secret: a hint of any rule, or
// a \u escape that could hide one from the substring test.
func jsonHinted(raw []byte) bool {
	if bytes.Contains(raw, []byte(`\u`)) {
		return true
	}
	return mayHaveSecret(string(raw))
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
