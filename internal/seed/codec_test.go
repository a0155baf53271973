package seed

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

func TestEncodeFormat(t *testing.T) {
	s := Defaults()
	s.Identity.Catchphrase = "<Ivy> & co"
	s.Extra = map[string]json.RawMessage{"zeta": json.RawMessage(`{"b": 1, "a": [1, 2]}`), "alpha": json.RawMessage(`"x"`)}
	b, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	if !strings.HasSuffix(out, "}\n") || strings.HasSuffix(out, "\n\n") {
		t.Errorf("output does not end in exactly one newline: %q", out[len(out)-5:])
	}
	if !strings.Contains(out, `"catchphrase": "<Ivy> & co"`) {
		t.Errorf("HTML characters escaped or indentation wrong:\n%s", out)
	}
	if !strings.HasPrefix(out, "{\n  \"version\": \"1.0.0\",\n  \"identity\": {\n    \"principalName\"") {
		t.Errorf("not 2-space indented in schema order:\n%s", out)
	}
	order := []string{`"version"`, `"identity"`, `"learned"`, `"state"`, `"alpha"`, `"zeta"`}
	last := -1
	for _, k := range order {
		i := strings.Index(out, "\n  "+k)
		if i <= last {
			t.Fatalf("key %s out of order in:\n%s", k, out)
		}
		last = i
	}
	again, err := Encode(s)
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("encoding is not stable")
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	for _, name := range []string{"valid-seed.json", "valid-seed-minimal.json"} {
		t.Run(name, func(t *testing.T) {
			data := fixture(t, name)
			s, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			_ = json.Unmarshal(data, &want)
			_ = json.Unmarshal(out, &got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round trip changed the seed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeKeepsTopLevelDropsNestedUnknown(t *testing.T) {
	doc := withValid(t, func(d map[string]any) {
		d["future"] = map[string]any{"x": 1.0}
		at(d, "identity")["nickname"] = "dropped"
	})
	data, _ := json.Marshal(doc)
	s, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := Encode(s)
	if !strings.Contains(string(out), `"future": {`) {
		t.Errorf("unknown top-level key lost:\n%s", out)
	}
	if strings.Contains(string(out), "nickname") {
		t.Errorf("unknown nested key kept:\n%s", out)
	}
}

func TestMerge(t *testing.T) {
	defaults := map[string]any{
		"a": map[string]any{"x": 1.0, "y": 2.0, "list": []any{"d"}},
		"b": "default",
		"c": []any{"default"},
		"d": map[string]any{"n": 1.0},
	}
	file := map[string]any{
		"a":     map[string]any{"x": 10.0, "list": []any{}, "extra": true},
		"c":     []any{"file"},
		"d":     nil,
		"other": "kept",
	}
	before := deepCopy(file)
	beforeDefaults := deepCopy(defaults)
	got := Merge(defaults, file)
	want := map[string]any{
		"a":     map[string]any{"x": 10.0, "y": 2.0, "list": []any{}, "extra": true},
		"b":     "default",
		"c":     []any{"file"},
		"d":     nil,
		"other": "kept",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Merge (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, any(file)); diff != "" {
		t.Errorf("file mutated (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(beforeDefaults, any(defaults)); diff != "" {
		t.Errorf("defaults mutated (-before +after):\n%s", diff)
	}
}

func TestMergeWithDefaultsFillsMissing(t *testing.T) {
	got, changed := MergeWithDefaults(map[string]any{"version": "1.0.0", "identity": map[string]any{"principalName": "Ada"}})
	if !changed {
		t.Fatal("changed = false, want true")
	}
	if v := Validate(got); !v.Valid {
		t.Fatalf("merged seed invalid: %+v", v.Errors)
	}
	if name := at(got, "identity")["principalName"]; name != "Ada" {
		t.Errorf("principalName = %v, want Ada", name)
	}
	full, _ := decodeAny(fixture(t, "valid-seed.json"))
	if _, changed := MergeWithDefaults(full.(map[string]any)); changed {
		t.Error("complete seed reported as changed")
	}
}

func TestDefaults(t *testing.T) {
	s := Defaults()
	if v := ValidateSeed(s); !v.Valid {
		t.Fatalf("defaults invalid: %+v", v.Errors)
	}
	want := Identity{PrincipalName: "User", AIName: "PAI", Catchphrase: "PAI here, ready to go.", VoiceID: "default",
		Preferences: Preferences{ResponseStyle: "adaptive", Timezone: "UTC", Locale: "en-US"}}
	if diff := cmp.Diff(want, s.Identity); diff != "" {
		t.Errorf("identity (-want +got):\n%s", diff)
	}
	b, _ := Encode(s)
	for _, absent := range []string{"lastSessionId", "lastSessionAt", "checkpointRef", "extractionStats"} {
		if strings.Contains(string(b), absent) {
			t.Errorf("defaults contain optional %s", absent)
		}
	}
}

// TestJSONSchemaAgreesWithValidate validates the fixtures and some broken
// seeds against the exported schema with a real JSON Schema validator.
func TestJSONSchemaAgreesWithValidate(t *testing.T) {
	data, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"$schema": "http://json-schema.org/draft-07/schema#"`) {
		t.Fatalf("schema is not draft-07:\n%.200s", data)
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(data, &sch); err != nil {
		t.Fatal(err)
	}
	sch.Schema = "" // the validator speaks 2020-12; the keywords used are common to both
	resolved, err := sch.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]any{}
	for _, name := range []string{"valid-seed.json", "valid-seed-minimal.json", "invalid-missing-version.json", "invalid-wrong-types.json"} {
		var v any
		_ = json.Unmarshal(fixture(t, name), &v)
		cases[name] = v
	}
	cases["bad proposal type"] = withValidPlain(t, func(d map[string]any) {
		at(d, "state")["proposals"].([]any)[0].(map[string]any)["type"] = "habit"
	})
	cases["offset datetime"] = withValidPlain(t, func(d map[string]any) { at(d, "state")["lastSessionAt"] = "2026-01-30T18:45:00+02:00" })
	cases["unknown top-level key"] = withValidPlain(t, func(d map[string]any) { d["future"] = true })
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			want := Validate(v).Valid
			got := resolved.Validate(v) == nil
			if got != want {
				t.Errorf("schema valid = %v, Validate valid = %v", got, want)
			}
		})
	}
}

// withValidPlain is withValid with float64 numbers, as the schema validator
// expects.
func withValidPlain(tb testing.TB, edit func(map[string]any)) map[string]any {
	tb.Helper()
	var doc map[string]any
	if err := json.Unmarshal(fixture(tb, "valid-seed.json"), &doc); err != nil {
		tb.Fatal(err)
	}
	edit(doc)
	return doc
}
