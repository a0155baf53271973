package memorysummary_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/memorysummary"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
)

func TestSchema(t *testing.T) {
	pt.Required[memorysummary.Response](t, "", "memories")
	pt.Required[memorysummary.Response](t, "memories[]", "content", "tags", "importance")
	pt.Enum[memorysummary.Response](t, "memories[].importance", false, "low", "medium", "high")
	got := pt.Valid[memorysummary.Response](t, map[string]any{"memories": []any{
		map[string]any{"content": "Fixed OAuth race", "tags": []any{"oauth", "race"}, "importance": "high"},
	}})
	if got.Memories[0].Tags[1] != "race" {
		t.Errorf("decoded: got %+v", got)
	}
	pt.Valid[memorysummary.Response](t, map[string]any{"memories": []any{}}) // EC-60: zero memories is normal
	pt.Invalid[memorysummary.Response](t, map[string]any{"memories": []any{map[string]any{"content": "x", "tags": []any{}, "importance": "urgent"}}})
}

func TestAssemble(t *testing.T) {
	got := pt.Decode(t, memorysummary.Assemble("user: hi", "Fix OAuth",
		[]memorysummary.Phase{{Title: "P1", Description: "find handler"}},
		[]memorysummary.Gap{{Topic: "async", Severity: "high"}}))
	want := map[string]any{
		"transcript": "user: hi",
		"issue":      "Fix OAuth",
		"phases":     []any{map[string]any{"title": "P1", "description": "find handler"}},
		"gaps":       []any{map[string]any{"topic": "async", "severity": "high"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAssembleTruncatesLongTranscript(t *testing.T) {
	long := "START " + strings.Repeat("x", 80_000) + " END"
	transcript := pt.Decode(t, memorysummary.Assemble(long, "i", nil, nil))["transcript"].(string)
	if len(transcript) > memorysummary.MaxTranscriptChars+100 {
		t.Errorf("transcript: got %d chars, want about %d", len(transcript), memorysummary.MaxTranscriptChars)
	}
	if !strings.HasPrefix(transcript, "START") || !strings.HasSuffix(transcript, "END") || !strings.Contains(transcript, "omitted") {
		t.Errorf("truncation keeps start and end with a marker: got %q…%q", transcript[:20], transcript[len(transcript)-20:])
	}
}
