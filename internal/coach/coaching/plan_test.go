package coaching

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	"github.com/paige-dev/paige/internal/memory"
)

func ip(n int) *int       { return &n }
func sp(s string) *string { return &s }

func TestOrderedPhases(t *testing.T) {
	in := []coachagent.Phase{{Number: 3, Title: "c"}, {Number: 1, Title: "a"}, {Number: 3, Title: "d"}, {Number: 7, Title: "e"}}
	var got []string
	for _, p := range orderedPhases(in) {
		got = append(got, p.Title+":"+strconv.Itoa(p.Number))
	}
	if diff := cmp.Diff([]string{"a:1", "c:2", "d:3", "e:4"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if in[0].Number != 3 {
		t.Error("orderedPhases changed its input")
	}
	if len(orderedPhases(nil)) != 0 {
		t.Error("nil phases")
	}
}

func TestPhaseRow(t *testing.T) {
	got := phaseRow("plan1", coachagent.Phase{Number: 2, Title: "  ", Description: "d", HintLevel: "region"})
	want := coach.Phase{PlanID: "plan1", Number: 2, Title: "Phase 2", Description: "d", Status: coach.PhasePending,
		HintLevel: coach.HintRegion, ExpectedFiles: []string{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestHintRows(t *testing.T) {
	files, lines := hintRows(coachagent.Phase{Hints: coachagent.Hints{
		FileHints: []coachagent.FileHint{{Path: "a.ts", Style: "critical"}, {Path: " ", Style: "suggested"}, {Path: "nope/missing.ts", Style: "suggested"}},
		LineHints: []coachagent.LineHint{
			{Path: "a.ts", Start: 9, End: 4, Style: "warning", HoverText: "backwards"},
			{Path: "a.ts", Start: 3, End: 3, Style: "hint"},
			{Path: "", Start: 1, End: 1},
		}}})
	wantFiles := []coach.PhaseHint{{Type: coach.HintTypeFile, Path: "a.ts", Style: "critical"}, {Type: coach.HintTypeFile, Path: "nope/missing.ts", Style: "suggested"}}
	wantLines := []coach.PhaseHint{
		{Type: coach.HintTypeLine, Path: "a.ts", StartLine: ip(4), EndLine: ip(9), Style: "warning", HoverText: sp("backwards")},
		{Type: coach.HintTypeLine, Path: "a.ts", StartLine: ip(3), EndLine: ip(3), Style: "hint"},
	}
	if diff := cmp.Diff(wantFiles, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantLines, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestMemoryInputs(t *testing.T) {
	q := memoryQuery(PipelineRequest{IssueSummary: "OAuth race", PlanText: strings.Repeat("x", 5000)})
	if !strings.HasPrefix(q, "OAuth race\n\nxxx") || len(q) > MaxMemoryQueryChars+50 {
		t.Errorf("memoryQuery = %.40q… (%d chars)", q, len(q))
	}
	got := candidates([]memory.Result{{ID: "mem_s_0", Content: "c", Distance: 0.25,
		Metadata: memory.Metadata{SessionID: "s", Project: "p", CreatedAt: "t", Importance: "high", Tags: "a,b"}}})
	want := []memoryfilter.Candidate{{Content: "c", Metadata: map[string]any{"session_id": "s", "project": "p", "created_at": "t",
		"importance": "high", "tags": "a,b", "distance": 0.25}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("candidates (-want +got):\n%s", diff)
	}
	mems := coachMemories(memoryfilter.Response{RelevantMemories: []memoryfilter.RelevantMemory{
		{Content: "keep", Connection: "c", UseInCoaching: "u"}, {Content: " ", Connection: "x"}}})
	if diff := cmp.Diff([]coachagent.Memory{{Content: "keep", Connection: "c", UseInCoaching: "u"}}, mems); diff != "" {
		t.Errorf("coachMemories (-want +got):\n%s", diff)
	}
	if got := coachMemories(memoryfilter.Response{}); got == nil || len(got) != 0 {
		t.Errorf("no relevant memories = %#v, want empty non-nil", got)
	}
}

func TestPlanFirst(t *testing.T) {
	if _, ok := (Plan{}).First(); ok {
		t.Error("First of an empty plan (EC-57) reported a phase")
	}
	p := Plan{Phases: []PlannedPhase{{Phase: coach.Phase{Number: 1, Title: "a"}}, {Phase: coach.Phase{Number: 2}}}}
	if f, ok := p.First(); !ok || f.Title != "a" {
		t.Errorf("First = %+v, %v", f, ok)
	}
}
