package mcpapi

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/llm"
)

// Coacher runs the story-9 flows; *coaching.Service satisfies it.
type Coacher interface {
	RunPipeline(ctx context.Context, in coaching.PipelineRequest) (coaching.Plan, error)
	EndSession(ctx context.Context, transcript string) (coaching.WrapUp, error)
}

// CoachingTools returns the [Options.Extra] that registers the two coaching
// tools of story 9, paige_run_coaching_pipeline and paige_end_session
// (14 tools in all).
func CoachingTools(c Coacher) func(*Server, *Deps) {
	return func(s *Server, d *Deps) {
		AddTool(s, &mcp.Tool{Name: "paige_run_coaching_pipeline",
			Description: "Turn the Plan Agent's plan into phased coaching for the developer: recalls related " +
				"memories, asks the coach model for phases with file and line hints adapted to the developer's " +
				"Dreyfus stage, stores them, shows the plan and the first phase's hints in the editor and returns " +
				"the phases. Call it once the plan is ready. Needs an active session and a configured model."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in PipelineIn) (*mcp.CallToolResult, PipelineOut, error) {
				return runPipeline(ctx, c, d, in)
			})
		AddTool(s, &mcp.Tool{Name: "paige_end_session",
			Description: "Wrap up the active coaching session with a condensed transcript: extracts knowledge " +
				"gaps and practice katas, updates the Dreyfus assessments, stores memories for future sessions, " +
				"and completes the session. The session ends at once, also without a model (the wrap-up is then queued). " +
				"Each step is best-effort; calling it again is a no-op."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in EndSessionIn) (*mcp.CallToolResult, EndSessionOut, error) {
				return endSession(ctx, c, d, in)
			})
	}
}

// PipelineIn is paige_run_coaching_pipeline's input (FR-108).
type PipelineIn struct {
	PlanText     string `json:"planText" jsonschema:"the Markdown plan produced by the Plan Agent"`
	IssueSummary string `json:"issueSummary" jsonschema:"brief description of the issue being worked on"`
	IssueNumber  *int   `json:"issueNumber,omitempty" jsonschema:"GitHub issue number, if any"`
}

// PipelinePhase is one phase of the tool result.
type PipelinePhase struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Description string `json:"description" jsonschema:"coaching message for this phase"`
	HintLevel   string `json:"hintLevel" jsonschema:"none, file, region or line"`
}

// PipelineOut is paige_run_coaching_pipeline's result (FR-116).
type PipelineOut struct {
	PlanID              string          `json:"planId"`
	Phases              []PipelinePhase `json:"phases"`
	MemoryConnection    *string         `json:"memoryConnection" jsonschema:"a connection to an earlier session, or null"`
	EstimatedDifficulty string          `json:"estimatedDifficulty" jsonschema:"beginner, intermediate or advanced"`
}

// runPipeline runs the flow, then steps 10–12: coaching:plan_ready, the
// first phase's hints, the result. A failure broadcasts nothing.
func runPipeline(ctx context.Context, c Coacher, d *Deps, in PipelineIn) (*mcp.CallToolResult, PipelineOut, error) {
	plan, err := c.RunPipeline(ctx, coaching.PipelineRequest{PlanText: in.PlanText, IssueSummary: in.IssueSummary, IssueNumber: in.IssueNumber})
	if err != nil {
		return nil, PipelineOut{}, modelError("coach agent", err)
	}
	phases := make([]coach.Phase, 0, len(plan.Phases))
	out := PipelineOut{PlanID: plan.Plan.ID, Phases: []PipelinePhase{}, MemoryConnection: plan.MemoryConnection,
		EstimatedDifficulty: plan.EstimatedDifficulty}
	for _, p := range plan.Phases {
		phases = append(phases, p.Phase)
		out.Phases = append(out.Phases, PipelinePhase{Number: p.Number, Title: p.Title, Description: p.Description, HintLevel: string(p.HintLevel)})
	}
	d.hub.Broadcast(wsapi.TypeCoachingPlanReady, wsapi.PlanReady{PlanID: plan.Plan.ID, Phases: wsapi.PhaseSummaries(phases),
		MemoryConnection: plan.MemoryConnection, EstimatedDifficulty: plan.EstimatedDifficulty})
	if first, ok := plan.First(); ok {
		// The developer starts on phase 1 now: it is active, not pending.
		if _, _, err := d.updatePhase(ctx, nil, PhaseIn{Phase: first.Number, Status: coach.PhaseActive}); err != nil {
			d.log.Warn("first phase not started", "phase", first.Number, "err", err)
		}
		applyHints(ctx, d, first)
	}
	return nil, out, nil
}

// applyHints shows a phase's hints the way paige_highlight_lines and
// paige_hint_files do (FR-115): accumulated in the live state, logged,
// broadcast. They are the plan's pointers, not hints the developer asked
// for, so no hint_used progress is recorded (the dashboard's "hints used"). A hint whose path is outside the project is skipped with a
// warning; hints for files that do not exist are sent as they are (EC-64).
func applyHints(ctx context.Context, d *Deps, ph coaching.PlannedPhase) {
	for _, h := range ph.LineHints {
		hover := ""
		if h.HoverText != nil {
			hover = *h.HoverText
		}
		hl, _, err := d.sess.AddHighlight(session.Highlight{Path: h.Path, Start: *h.StartLine, End: *h.EndLine, Style: h.Style, HoverText: hover})
		if err != nil {
			d.log.Warn("coaching hint skipped", "path", h.Path, "err", err)
			continue
		}
		d.logAction(ctx, coach.ActionDecorationsApplied, map[string]any{"path": hl.Path, "count": 1})
		d.hub.Broadcast(wsapi.TypeEditorHighlightLines, wsapi.HighlightLines{Path: hl.Path, Start: hl.Start, End: hl.End, Style: hl.Style, HoverText: hl.HoverText})
	}
	var hints []session.Hint
	for _, h := range ph.FileHints {
		if _, err := d.sess.Normalize(h.Path); err != nil {
			d.log.Warn("coaching hint skipped", "path", h.Path, "err", err)
			continue
		}
		hints = append(hints, session.Hint{Path: h.Path, Style: or(h.Style, "suggested")})
	}
	if len(hints) == 0 {
		return
	}
	added, err := d.sess.AddHints(hints)
	if err != nil {
		d.log.Warn("coaching file hints skipped", "err", err)
		return
	}
	msg := wsapi.ExplorerHintFiles{Hints: make([]wsapi.FileHint, 0, len(added))}
	paths := make([]string, 0, len(added))
	for _, h := range added {
		msg.Hints = append(msg.Hints, wsapi.FileHint{Path: h.Path, Style: h.Style})
		paths = append(paths, h.Path)
	}
	d.logAction(ctx, coach.ActionFileHintsApplied, map[string]any{"paths": paths})
	d.hub.Broadcast(wsapi.TypeExplorerHintFiles, msg)
}

// EndSessionIn is paige_end_session's input (FR-117).
type EndSessionIn struct {
	SessionTranscript string `json:"sessionTranscript" jsonschema:"condensed transcript of the session's key exchanges; very long ones are cut"`
}

// EndSessionOut is paige_end_session's result.
type EndSessionOut struct {
	KnowledgeGaps    int    `json:"knowledgeGaps" jsonschema:"new knowledge gaps identified"`
	KataSpecs        int    `json:"kataSpecs" jsonschema:"new practice katas generated"`
	DreyfusUpdates   int    `json:"dreyfusUpdates" jsonschema:"skill assessments created or changed"`
	MemoriesStored   int    `json:"memoriesStored" jsonschema:"memories stored for future sessions"`
	SessionStatus    string `json:"sessionStatus" jsonschema:"always completed"`
	AlreadyCompleted bool   `json:"alreadyCompleted,omitempty" jsonschema:"true when the session had been wrapped up before and nothing was done"`
	WrapUpQueued     bool   `json:"wrapUpQueued,omitempty" jsonschema:"true when the session ended without a model: the wrap-up runs when paige serve next starts with one"`
}

// endSession runs the wrap-up and broadcasts session:completed; a repeated
// call (EC-62) broadcasts nothing.
func endSession(ctx context.Context, c Coacher, d *Deps, in EndSessionIn) (*mcp.CallToolResult, EndSessionOut, error) {
	w, err := c.EndSession(ctx, in.SessionTranscript)
	if err != nil {
		return nil, EndSessionOut{}, err
	}
	out := EndSessionOut{KnowledgeGaps: w.KnowledgeGaps, KataSpecs: w.KataSpecs, DreyfusUpdates: w.DreyfusUpdates,
		MemoriesStored: w.MemoriesStored, SessionStatus: string(coach.SessionCompleted), AlreadyCompleted: w.AlreadyCompleted,
		WrapUpQueued: w.Queued}
	if !w.AlreadyCompleted && !w.Queued {
		d.hub.Broadcast(wsapi.TypeSessionCompleted, wsapi.SessionCompleted{SessionID: w.SessionID, KnowledgeGaps: w.KnowledgeGaps,
			KataSpecs: w.KataSpecs, DreyfusUpdates: w.DreyfusUpdates, MemoriesStored: w.MemoriesStored})
	}
	return nil, out, nil
}

// modelError is the tool error for a failed model call: what failed and the
// clean sentence of its llm.Kind, never the provider's error text (that is
// in the server log). Other errors, and ErrNoModel, pass unchanged.
func modelError(what string, err error) error {
	k := llm.Classify(err)
	if k == llm.KindUnknown || k == llm.KindNoModel {
		return err
	}
	return fmt.Errorf("%s failed: %s", what, k.Message())
}
