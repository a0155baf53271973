package explainthis_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/prompts/explainthis"
	pt "github.com/paige-dev/paige/internal/coach/prompts/promptstest"
)

func TestSchema(t *testing.T) {
	pt.Required[explainthis.Response](t, "", "explanation", "key_concepts", "analogy", "related_files", "phase_connection")
	valid := map[string]any{"explanation": "e", "key_concepts": []any{"closures"}, "analogy": nil, "related_files": nil, "phase_connection": "p"}
	got := pt.Valid[explainthis.Response](t, valid)
	if got.RelatedFiles != nil || *got.PhaseConnection != "p" {
		t.Errorf("decoded: got %+v", got)
	}
	withFiles := pt.Clone(valid)
	withFiles["related_files"] = []any{"a.ts"}
	pt.Valid[explainthis.Response](t, withFiles)
	bad := pt.Clone(valid)
	bad["key_concepts"] = nil
	pt.Invalid[explainthis.Response](t, bad)
}

func TestSystemInjectsDreyfus(t *testing.T) {
	tests := []struct{ stage, want string }{{"competent", "User's Dreyfus stage: competent\n"}, {"", "User's Dreyfus stage: novice\n"}}
	for _, tt := range tests {
		got := explainthis.System(tt.stage)
		if !strings.Contains(got, tt.want) || strings.Contains(got, "{dreyfus_stage}") {
			t.Errorf("System(%q): got %q", tt.stage, got)
		}
	}
	if r := explainthis.Request("s", "expert", "u"); !strings.Contains(r.System, "stage: expert") || r.CallType != "explain_this" {
		t.Errorf("Request: got %+v", r)
	}
}

func TestAssemble(t *testing.T) {
	got := pt.Decode(t, explainthis.Assemble("x := <-ch", "func f() {\n\tx := <-ch\n}", "main.go", "go",
		&explainthis.Phase{Number: 2, Title: "Wire", Description: "connect"}))
	want := map[string]any{
		"selected_code": "x := <-ch", "surrounding_context": "func f() {\n\tx := <-ch\n}", "file_path": "main.go", "language": "go",
		"current_phase": map[string]any{"number": float64(2), "title": "Wire", "description": "connect"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if pt.Decode(t, explainthis.Assemble("a", "b", "c", "d", nil))["current_phase"] != nil {
		t.Error("no phase: want current_phase null")
	}
}
