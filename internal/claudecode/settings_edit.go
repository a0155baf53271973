package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// Settings files are edited in place with github.com/tailscale/hujson:
// Paige's changes are a JSON Patch (RFC 6902) applied to the user's bytes,
// so everything Paige does not own keeps its formatting, key order,
// number spelling and escapes, and uninstall after install gives back the
// file byte for byte. The file is read with [parseObject] first, which
// validates it and tells where Paige's entries are.

// patch is a JSON Patch under construction.
type patch []map[string]any

func (p *patch) add(path string, v any) {
	*p = append(*p, map[string]any{"op": "add", "path": path, "value": v})
}

func (p *patch) remove(path string) { *p = append(*p, map[string]any{"op": "remove", "path": path}) }

// pointer builds a JSON Pointer (RFC 6901) from keys and indices.
func pointer(parts ...any) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteByte('/')
		switch p := p.(type) {
		case int:
			b.WriteString(strconv.Itoa(p))
		case string:
			b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
		}
	}
	return b.String()
}

// applyEdits applies ops to data and returns the result. A blank data or
// an empty object (a file about to be created: no formatting to keep) is
// formatted with two-space indentation;
// otherwise only the patched places change. When the result means the
// same JSON as data, data is returned unchanged, so installing twice
// writes the same bytes as installing once.
func applyEdits(data []byte, ops patch) ([]byte, error) {
	src := data
	trimmed := bytes.TrimSpace(data)
	blank := len(trimmed) == 0 || string(trimmed) == "{}"
	if blank {
		src = []byte("{}")
	}
	v, err := hujson.Parse(src)
	if err != nil {
		return nil, err
	}
	if len(ops) > 0 {
		raw, err := json.Marshal(ops)
		if err != nil {
			return nil, err
		}
		if err := v.Patch(raw); err != nil {
			return nil, fmt.Errorf("edit: %w", err)
		}
	}
	out := v.Pack()
	if blank {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err != nil {
			return nil, err
		}
		b.WriteByte('\n')
		return b.Bytes(), nil
	}
	if sameJSON(data, out) {
		return data, nil
	}
	return out, nil
}

// sameJSON reports whether a and b decode to equal values.
func sameJSON(a, b []byte) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
}
