package coaching

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts"
	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	"github.com/paige-dev/paige/internal/memory"
)

// PipelineRequest is paige_run_coaching_pipeline's input (FR-108).
type PipelineRequest struct {
	PlanText     string // Markdown plan from Claude Code's Plan Agent (D46); required
	IssueSummary string // brief issue description; required
	IssueNumber  *int   // GitHub issue number, if any
}

// Plan is what the pipeline stored: the plan row, its phases in order with
// their hints, and the coach agent's cross-session remarks.
type Plan struct {
	SessionID           string
	Plan                coach.Plan
	Phases              []PlannedPhase // ordered by number, numbered 1..N
	MemoryConnection    *string        // nil when the coach saw no relevant memory
	EstimatedDifficulty string
	MemoriesRetrieved   int // memories the store returned
	MemoriesUsed        int // memories the filter kept and the coach saw
}

// PlannedPhase is a stored phase with its stored hints.
type PlannedPhase struct {
	coach.Phase
	FileHints []coach.PhaseHint
	LineHints []coach.PhaseHint
}

// First returns the first phase, whose hints are applied at once (FR-115);
// ok is false for a plan without phases (EC-57).
func (p Plan) First() (PlannedPhase, bool) {
	if len(p.Phases) == 0 {
		return PlannedPhase{}, false
	}
	return p.Phases[0], true
}

// MaxMemoryQueryChars bounds the text sent to the embedder for recall: the
// issue summary and the start of the plan say what the work is about.
const MaxMemoryQueryChars = 2000

// memoryQuery is the recall text of a pipeline run (FR-109).
func memoryQuery(in PipelineRequest) string {
	q := strings.TrimSpace(in.IssueSummary + "\n\n" + in.PlanText)
	return prompts.Truncate(q, MaxMemoryQueryChars)
}

// candidates maps recalled memories to the filter's input.
func candidates(results []memory.Result) []memoryfilter.Candidate {
	out := make([]memoryfilter.Candidate, 0, len(results))
	for _, r := range results {
		out = append(out, memoryfilter.Candidate{Content: r.Content, Metadata: map[string]any{
			"session_id": r.Metadata.SessionID, "project": r.Metadata.Project, "created_at": r.Metadata.CreatedAt,
			"importance": r.Metadata.Importance, "tags": r.Metadata.Tags, "distance": r.Distance,
		}})
	}
	return out
}

// coachMemories keeps the filter's relevant memories for the coach agent.
func coachMemories(f memoryfilter.Response) []coachagent.Memory {
	out := make([]coachagent.Memory, 0, len(f.RelevantMemories))
	for _, m := range f.RelevantMemories {
		if strings.TrimSpace(m.Content) == "" {
			continue
		}
		out = append(out, coachagent.Memory{Content: m.Content, Connection: m.Connection, UseInCoaching: m.UseInCoaching})
	}
	return out
}

// orderedPhases returns the coach's phases sorted by their number (stable)
// and renumbered 1..N, so paige_update_phase's numbers are unambiguous even
// when the model repeats or skips a number.
func orderedPhases(phases []coachagent.Phase) []coachagent.Phase {
	out := slices.Clone(phases)
	slices.SortStableFunc(out, func(a, b coachagent.Phase) int { return cmp.Compare(a.Number, b.Number) })
	for i := range out {
		out[i].Number = i + 1
	}
	return out
}

// phaseRow maps a coach phase to a pending phases row (scenario 9.8).
func phaseRow(planID string, p coachagent.Phase) coach.Phase {
	title := strings.TrimSpace(p.Title)
	if title == "" {
		title = "Phase " + strconv.Itoa(p.Number)
	}
	return coach.Phase{PlanID: planID, Number: p.Number, Title: title, Description: p.Description,
		Status: coach.PhasePending, HintLevel: coach.HintLevel(p.HintLevel), ExpectedFiles: prompts.List(p.ExpectedFiles)}
}

// hintRows maps a coach phase's hints to phase_hints rows (without their
// phase id). Hints for files that do not exist are kept as given (EC-64); a
// line range given backwards is put in order; hints without a path are
// dropped.
func hintRows(p coachagent.Phase) (files, lines []coach.PhaseHint) {
	for _, h := range p.Hints.FileHints {
		if strings.TrimSpace(h.Path) == "" {
			continue
		}
		files = append(files, coach.PhaseHint{Type: coach.HintTypeFile, Path: h.Path, Style: h.Style})
	}
	for _, h := range p.Hints.LineHints {
		if strings.TrimSpace(h.Path) == "" {
			continue
		}
		start, end := max(1, min(h.Start, h.End)), max(1, h.Start, h.End)
		row := coach.PhaseHint{Type: coach.HintTypeLine, Path: h.Path, StartLine: &start, EndLine: &end, Style: h.Style}
		if h.HoverText != "" {
			hover := h.HoverText
			row.HoverText = &hover
		}
		lines = append(lines, row)
	}
	return files, lines
}
