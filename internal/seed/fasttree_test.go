package seed

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// roundTrip is what salvageBytes did before seedFromTree: encode the tree
// with encoding/json and decode it with Decode.
func roundTrip(tb testing.TB, tree map[string]any) (*Seed, error) {
	tb.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(tree); err != nil {
		return nil, err
	}
	return Decode(buf.Bytes())
}

// checkSeedFromTree salvages data like ReadOnly and, when seedFromTree
// takes the result, compares it with the encoding/json round trip.
func checkSeedFromTree(t *testing.T, data []byte) (taken bool) {
	t.Helper()
	tree, err := decodeAny(data)
	if err != nil {
		return false
	}
	obj, isObj := tree.(map[string]any)
	if !isObj {
		return false
	}
	merged, _ := MergeWithDefaults(obj)
	fixed, _, ok := Salvage(merged, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if !ok {
		return false
	}
	got, taken := seedFromTree(fixed)
	if !taken {
		return false
	}
	want, err := roundTrip(t, fixed)
	if err != nil {
		t.Fatalf("seedFromTree took a tree the round trip rejects (%v): %s", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("seedFromTree differs from the round trip on %s:\ngot  %#v\nwant %#v", data, got, want)
	}
	return true
}

// TestSeedFromTreeMatchesRoundTrip: on every fixture seedFromTree gives
// exactly what encoding/json gives, and it takes the plain ones.
func TestSeedFromTreeMatchesRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	taken := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if checkSeedFromTree(t, data) {
			taken++
		}
	}
	if taken < 3 {
		t.Errorf("seedFromTree took %d of %d fixtures; want at least the valid and large ones", taken, len(files))
	}
}

// TestSeedFromTreeDeclines: shapes encoding/json reads differently are left
// to it.
func TestSeedFromTreeDeclines(t *testing.T) {
	for _, in := range []map[string]any{
		{"Version": "1.0.0"},                            // case-folded match
		{"version": "1.0.0", "extra": true},             // Extra
		{"identity": nil},                               // null
		{"identity": map[string]any{"AIName": "x"}},     // case-folded nested
		{"learned": map[string]any{"patterns": "nope"}}, // wrong type
		{"version": "\xff"},                             // invalid UTF-8
		{"state": map[string]any{"proposals": []any{map[string]any{"confidence": json.Number("1e999")}}}},
	} {
		if _, ok := seedFromTree(in); ok {
			t.Errorf("seedFromTree took %v", in)
		}
	}
}

// FuzzSeedFromTree: whatever seedFromTree takes equals the encoding/json
// round trip.
func FuzzSeedFromTree(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"state":{"extractionStats":{"accepted":1,"byType":{"pattern":{"accepted":2}}},"proposals":[{"confidence":0.5}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSeedFromTree(t, data)
	})
}
