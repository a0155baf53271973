// Package promptstest checks prompt template packages: the generated schema
// (required fields, enums, wire form) and that a reply round-trips.
package promptstest

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/llm"
)

// Schema returns the Schema of T, failing tb on error.
func Schema[T any](tb testing.TB) *llm.Schema {
	tb.Helper()
	s, err := llm.SchemaFor[T]()
	if err != nil {
		tb.Fatalf("SchemaFor: %v", err)
	}
	return s
}

// Required checks that the object at path (see llm.Field) requires exactly want.
func Required[T any](tb testing.TB, path string, want ...string) {
	tb.Helper()
	f, err := llm.Field(Schema[T](tb).Full, path)
	if err != nil {
		tb.Fatal(err)
	}
	got := slices.Clone(f.Required)
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		tb.Errorf("required at %q (-want +got):\n%s", path, diff)
	}
}

// Enum checks the enum at path; a nullable field also allows null.
func Enum[T any](tb testing.TB, path string, nullable bool, want ...string) {
	tb.Helper()
	f, err := llm.Field(Schema[T](tb).Full, path)
	if err != nil {
		tb.Fatal(err)
	}
	var w []any
	for _, v := range want {
		w = append(w, v)
	}
	if nullable {
		w = append(w, nil)
	}
	if diff := cmp.Diff(w, f.Enum); diff != "" {
		tb.Errorf("enum at %q (-want +got):\n%s", path, diff)
	}
}

// Range checks minimum and maximum at path; nil means unbounded.
func Range[T any](tb testing.TB, path string, min, max *float64) {
	tb.Helper()
	f, err := llm.Field(Schema[T](tb).Full, path)
	if err != nil {
		tb.Fatal(err)
	}
	if diff := cmp.Diff(min, f.Minimum); diff != "" {
		tb.Errorf("minimum at %q (-want +got):\n%s", path, diff)
	}
	if diff := cmp.Diff(max, f.Maximum); diff != "" {
		tb.Errorf("maximum at %q (-want +got):\n%s", path, diff)
	}
}

// F returns a pointer to f, for Range.
func F(f float64) *float64 { return &f }

// Valid checks that reply (marshalled to JSON) validates and decodes into T,
// and returns the decoded value.
func Valid[T any](tb testing.TB, reply any) T {
	tb.Helper()
	b, err := json.Marshal(reply)
	if err != nil {
		tb.Fatal(err)
	}
	var out T
	if err := Schema[T](tb).Validate(string(b), &out); err != nil {
		tb.Fatalf("valid reply rejected: %v\n%s", err, b)
	}
	return out
}

// Invalid checks that reply (marshalled to JSON) is rejected.
func Invalid[T any](tb testing.TB, reply any) {
	tb.Helper()
	b, err := json.Marshal(reply)
	if err != nil {
		tb.Fatal(err)
	}
	var out T
	if err := Schema[T](tb).Validate(string(b), &out); err == nil {
		tb.Errorf("invalid reply accepted: %s", b)
	}
}

// Decode parses a user message built by an Assemble function.
func Decode(tb testing.TB, msg string) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(msg), &m); err != nil {
		tb.Fatalf("user message is not a JSON object: %v\n%s", err, msg)
	}
	return m
}

// Clone deep-copies a JSON-like map (for building invalid variants).
func Clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// JSONString marshals v, failing tb on error.
func JSONString(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
