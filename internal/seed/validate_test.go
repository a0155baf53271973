package seed

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/paige-dev/paige/internal/testenv"
)

func TestValidateFixtures(t *testing.T) {
	tests := []struct {
		file  string
		valid bool
	}{
		{"valid-seed.json", true},
		{"valid-seed-minimal.json", true},
		{"large-seed.json", true},
		{"invalid-missing-version.json", false},
		{"invalid-wrong-types.json", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := ValidateJSON(fixture(t, tt.file))
			if got.Valid != tt.valid {
				t.Fatalf("Valid = %v, want %v (errors %+v)", got.Valid, tt.valid, got.Errors)
			}
		})
	}
}

func TestValidateStepOrder(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want ValidationError
	}{
		{"empty", "", ValidationError{"$", "Seed data must be a non-null object", CodeInvalidType}},
		{"null", "null", ValidationError{"$", "Seed data must be a non-null object", CodeInvalidType}},
		{"array", "[]", ValidationError{"$", "Expected object, received array", CodeInvalidType}},
		{"string", `"x"`, ValidationError{"$", "Expected object, received string", CodeInvalidType}},
		{"number", `42`, ValidationError{"$", "Expected object, received number", CodeInvalidType}},
		{"boolean", `true`, ValidationError{"$", "Expected object, received boolean", CodeInvalidType}},
		{"no version even with other errors", `{"identity": 1}`, ValidationError{"$.version", "Missing required field: version", CodeMissingField}},
		{"version number", `{"version": 100}`, ValidationError{"$.version", "Version must be a string, received number", CodeInvalidType}},
		{"version v-prefixed", `{"version": "v1.0"}`, ValidationError{"$.version", `Invalid version format: "v1.0". Expected semver (e.g., 1.0.0)`, CodeInvalidFormat}},
		{"version two parts", `{"version": "1.0"}`, ValidationError{"$.version", `Invalid version format: "1.0". Expected semver (e.g., 1.0.0)`, CodeInvalidFormat}},
		{"version prerelease", `{"version": "1.0.0-beta"}`, ValidationError{"$.version", `Invalid version format: "1.0.0-beta". Expected semver (e.g., 1.0.0)`, CodeInvalidFormat}},
		{"major 2", `{"version": "2.0.0"}`, ValidationError{"$.version", "Schema version 2.0.0 requires migration. Expected 1.x.x", CodeVersionMismatch}},
		{"major 0", `{"version": "0.9.0"}`, ValidationError{"$.version", "Schema version 0.9.0 requires migration. Expected 1.x.x", CodeVersionMismatch}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ValidateJSON([]byte(tt.in))
			if diff := cmp.Diff([]ValidationError{tt.want}, got.Errors); diff != "" || got.Valid {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateWrongTypesFixture(t *testing.T) {
	// version 100 stops at step 4; with a valid version, every structural
	// problem is reported in schema order.
	got := ValidateJSON(fixture(t, "invalid-wrong-types.json"))
	want := []ValidationError{{"$.version", "Version must be a string, received number", CodeInvalidType}}
	if diff := cmp.Diff(want, got.Errors); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	var doc map[string]any
	if err := json.Unmarshal(fixture(t, "invalid-wrong-types.json"), &doc); err != nil {
		t.Fatal(err)
	}
	doc["version"] = "1.0.0"
	got = Validate(doc)
	want = []ValidationError{
		{"$.identity.principalName", "Expected string, received boolean", CodeInvalidType},
		{"$.identity.aiName", "Expected string, received number", CodeInvalidType},
		{"$.identity.catchphrase", "String must contain at least 1 character(s)", CodeTooSmall},
		{"$.identity.preferences.responseStyle", "Invalid enum value. Expected 'concise' | 'detailed' | 'adaptive', received 'ultra-verbose'", CodeInvalidEnum},
		{"$.identity.preferences.timezone", "Expected string, received number", CodeInvalidType},
		{"$.identity.preferences.locale", "Expected string, received null", CodeInvalidType},
		{"$.learned.patterns", "Expected array, received string", CodeInvalidType},
		{"$.state.activeProjects", "Expected array, received number", CodeInvalidType},
	}
	if diff := cmp.Diff(want, got.Errors); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// withValid returns valid-seed.json decoded and changed by edit.
func withValid(tb testing.TB, edit func(doc map[string]any)) map[string]any {
	tb.Helper()
	v, err := decodeAny(fixture(tb, "valid-seed.json"))
	if err != nil {
		tb.Fatal(err)
	}
	doc := v.(map[string]any)
	edit(doc)
	return doc
}

func at(doc map[string]any, keys ...string) map[string]any {
	m := doc
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

func TestValidateStructuralPaths(t *testing.T) {
	tests := []struct {
		name string
		edit func(doc map[string]any)
		want []ValidationError
	}{
		{"proposal type", func(d map[string]any) {
			at(d, "state")["proposals"].([]any)[0].(map[string]any)["type"] = "habit"
		}, []ValidationError{{"$.state.proposals.0.type", "Invalid enum value. Expected 'pattern' | 'insight' | 'self_knowledge', received 'habit'", CodeInvalidEnum}}},
		{"missing identity", func(d map[string]any) { delete(d, "identity") },
			[]ValidationError{{"$.identity", "Missing required field: identity", CodeMissingField}}},
		{"learning content empty and tags wrong", func(d map[string]any) {
			l := at(d, "learned")["insights"].([]any)[0].(map[string]any)
			l["content"] = ""
			l["tags"] = []any{"ok", 3.0}
		}, []ValidationError{
			{"$.learned.insights.0.content", "String must contain at least 1 character(s)", CodeTooSmall},
			{"$.learned.insights.0.tags.1", "Expected string, received number", CodeInvalidType},
		}},
		{"proposal not an object", func(d map[string]any) {
			at(d, "state")["proposals"] = []any{"x"}
		}, []ValidationError{{"$.state.proposals.0", "Expected object, received string", CodeInvalidType}}},
		{"bad datetimes", func(d map[string]any) {
			at(d, "state")["lastSessionAt"] = "2026-01-30T18:45:00+02:00"
			at(d, "learned")["patterns"].([]any)[2].(map[string]any)["confirmedAt"] = "2026-02-30T08:05:00Z"
		}, []ValidationError{
			{"$.learned.patterns.2.confirmedAt", "Invalid datetime", CodeInvalidString},
			{"$.state.lastSessionAt", "Invalid datetime", CodeInvalidString},
		}},
		{"confidence not a number", func(d map[string]any) {
			at(d, "state")["proposals"].([]any)[1].(map[string]any)["confidence"] = "high"
		}, []ValidationError{{"$.state.proposals.1.confidence", "Expected number, received string", CodeInvalidType}}},
		{"stats incomplete", func(d map[string]any) {
			at(d, "state")["extractionStats"] = map[string]any{"accepted": 1.0, "rejected": 0.0, "confidenceSum": map[string]any{}}
		}, []ValidationError{
			{"$.state.extractionStats.byType", "Missing required field: byType", CodeMissingField},
			{"$.state.extractionStats.confidenceSum.accepted", "Missing required field: accepted", CodeMissingField},
			{"$.state.extractionStats.confidenceSum.rejected", "Missing required field: rejected", CodeMissingField},
			{"$.state.extractionStats.confidenceCount", "Missing required field: confidenceCount", CodeMissingField},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Validate(withValid(t, tt.edit))
			if diff := cmp.Diff(tt.want, got.Errors); diff != "" || got.Valid {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateWarnings(t *testing.T) {
	got := Validate(withValid(t, func(d map[string]any) {
		d["zeta"] = 1.0
		d["alpha"] = map[string]any{}
		at(d, "identity")["nickname"] = "nested keys are not reported"
	}))
	want := []string{
		`Unknown top-level key: "alpha" (may be from a newer schema version)`,
		`Unknown top-level key: "zeta" (may be from a newer schema version)`,
	}
	if diff := cmp.Diff(want, got.Warnings); diff != "" || !got.Valid {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := ValidateJSON(fixture(t, "valid-seed.json")); got.Warnings != nil {
		t.Errorf("warnings = %v, want none", got.Warnings)
	}
}

func TestIsDatetime(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"2026-01-30T18:45:00Z", true},
		{"2026-01-30T18:45:00.123Z", true},
		{"2024-02-29T00:00:00Z", true},
		{"2026-01-30T18:45:00", false},
		{"2026-01-30T18:45:00+02:00", false},
		{"2026-01-30T18:45Z", false},
		{"2026-01-30", false},
		{"2026-02-30T00:00:00Z", false},
		{"2025-02-29T00:00:00Z", false},
		{"2026-01-30T24:00:00Z", false},
		{"2026-01-30T18:45:00.Z", false},
		{"2026-01-30t18:45:00Z", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsDatetime(tt.in); got != tt.want {
			t.Errorf("IsDatetime(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestValidateNoPanicOnOddValues(t *testing.T) {
	for _, in := range []string{`{"version":"1.0.0","identity":[],"learned":null,"state":"x"}`, `{"version":"9999999999999999999999.0.0"}`, `{"version":"1.0.0"} trailing`} {
		if got := ValidateJSON([]byte(in)); got.Valid {
			t.Errorf("ValidateJSON(%s) valid, want errors", in)
		} else if !strings.HasPrefix(got.Errors[0].Path, "$") {
			t.Errorf("path %q does not start with $", got.Errors[0].Path)
		}
	}
}

func FuzzValidateAndLoad(f *testing.F) {
	for _, name := range []string{"valid-seed.json", "valid-seed-minimal.json", "invalid-missing-version.json", "invalid-wrong-types.json"} {
		f.Add(fixture(f, name))
	}
	f.Add([]byte(`{"version":"1.0.0","state":{"proposals":[{}]}}`))
	f.Add([]byte("null"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v := ValidateJSON(data)
		if !v.Valid && len(v.Errors) == 0 {
			t.Fatal("invalid without errors")
		}
		res, err := parse("", data, false)
		if (err == nil) == (res.Seed == nil) {
			t.Fatalf("seed %v with error %v", res.Seed != nil, err)
		}
		if err != nil {
			var le *LoadError
			if !errors.As(err, &le) || le.Code == "" {
				t.Fatalf("error %v is not a *LoadError with a code", err)
			}
		} else {
			if _, err := Encode(res.Seed); err != nil {
				t.Fatalf("loaded seed does not encode: %v", err)
			}
			if vr := ValidateSeed(res.Seed); !vr.Valid {
				t.Fatalf("loaded seed does not revalidate: %+v", vr.Errors)
			}
		}
	})
}

func BenchmarkValidateLarge(b *testing.B) {
	doc, err := decodeAny(fixture(b, "large-seed.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start, n := testenv.CPUTime(), 0
	for b.Loop() {
		if !Validate(doc).Valid {
			b.Fatal("invalid")
		}
		n++
	}
	b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
}

// BenchmarkValidateJSONLarge validates the 1,600-entry seed (710 KB) from
// its bytes. Target (issue 15): ≤ 1 ms. cpu-ns/op is the process's CPU
// time per validation, the figure to compare on a shared machine.
func BenchmarkValidateJSONLarge(b *testing.B) {
	data := fixture(b, "large-seed.json")
	b.SetBytes(int64(len(data)))
	start, n := testenv.CPUTime(), 0
	for b.Loop() {
		if !ValidateJSON(data).Valid {
			b.Fatal("invalid")
		}
		n++
	}
	b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
}
