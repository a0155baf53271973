package seed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// Encode renders s the way seed files are written: keys in schema order
// (unknown top-level keys last, sorted), 2-space indentation, no HTML
// escaping, a trailing newline. Nil slices in s are replaced by empty ones
// so the file always holds arrays.
func Encode(s *Seed) ([]byte, error) {
	normalize(s)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encode seed: %w", err)
	}
	compact := bytes.TrimRight(buf.Bytes(), "\n")
	if len(s.Extra) > 0 {
		keys := make([]string, 0, len(s.Extra))
		for k := range s.Extra {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := append([]byte{}, compact[:len(compact)-1]...)
		for _, k := range keys {
			var kb, vb bytes.Buffer
			ke := json.NewEncoder(&kb)
			ke.SetEscapeHTML(false)
			_ = ke.Encode(k) // a string always encodes
			if err := json.Compact(&vb, s.Extra[k]); err != nil {
				return nil, fmt.Errorf("encode seed: key %q: %w", k, err)
			}
			out = append(out, ',')
			out = append(out, bytes.TrimRight(kb.Bytes(), "\n")...)
			out = append(out, ':')
			out = append(out, vb.Bytes()...)
		}
		compact = append(out, '}')
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, fmt.Errorf("encode seed: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func normalize(s *Seed) {
	for _, cat := range []*[]Learning{&s.Learned.Patterns, &s.Learned.Insights, &s.Learned.SelfKnowledge} {
		if *cat == nil {
			*cat = []Learning{}
		}
		for i := range *cat {
			if (*cat)[i].Tags == nil {
				(*cat)[i].Tags = []string{}
			}
		}
	}
	if s.State.Proposals == nil {
		s.State.Proposals = []Proposal{}
	}
	if s.State.ActiveProjects == nil {
		s.State.ActiveProjects = []string{}
	}
}

// Decode parses a seed document into a [Seed], keeping unknown top-level keys
// in Extra and dropping unknown nested keys. It does not validate; see
// [Validate] and [Load].
func Decode(data []byte) (*Seed, error) {
	var s Seed
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("decode seed: %w", err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("decode seed: %w", err)
	}
	for k, v := range top {
		if !knownTopLevel(k) {
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[k] = v
		}
	}
	normalize(&s)
	return &s, nil
}

// ValidateSeed validates a typed seed exactly as its encoded file would be.
func ValidateSeed(s *Seed) ValidationResult {
	b, err := Encode(s)
	if err != nil {
		return fail("$", err.Error(), CodeInvalidType)
	}
	return ValidateJSON(b)
}

// Merge deep-merges a decoded seed document over the decoded defaults and
// returns a new value: keys missing in file are added from defaults, nested
// objects merge recursively, and anything present in file wins (arrays, even
// empty ones, and null included). Unknown keys are kept. Neither input is
// mutated.
func Merge(defaults, file map[string]any) map[string]any {
	out := make(map[string]any, len(file)+len(defaults))
	for k, v := range file {
		out[k] = v
	}
	for k, dv := range defaults {
		fv, present := file[k]
		if !present {
			out[k] = deepCopy(dv)
			continue
		}
		dm, dIsObj := dv.(map[string]any)
		fm, fIsObj := fv.(map[string]any)
		if dIsObj && fIsObj {
			out[k] = Merge(dm, fm)
		}
	}
	return out
}

// MergeWithDefaults merges file over [Defaults] (see [Merge]) and reports
// whether the result differs from file.
func MergeWithDefaults(file map[string]any) (merged map[string]any, changed bool) {
	merged = Merge(defaultTree(), file)
	return merged, !reflect.DeepEqual(merged, file)
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}
