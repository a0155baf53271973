package mcpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
)

// StateItems are the items paige_get_session_state can return (D30).
var StateItems = []string{"open_files", "buffers", "diffs", "phase", "plan", "progress", "hints", "session", "dreyfus"}

// StateIn is paige_get_session_state's input.
type StateIn struct {
	Include []string `json:"include,omitempty" jsonschema:"items to return: open_files, buffers, diffs, phase, plan, progress, hints, session, dreyfus; empty means all"`
}

// Items returns the requested items in catalog order: all of them when
// Include is empty (EC-33), or an error naming an unknown item.
func (in StateIn) Items() ([]string, error) {
	if len(in.Include) == 0 {
		return StateItems, nil
	}
	for _, it := range in.Include {
		if !slices.Contains(StateItems, it) {
			return nil, fmt.Errorf("unknown state item %q (known: %v)", it, StateItems)
		}
	}
	var out []string
	for _, it := range StateItems {
		if slices.Contains(in.Include, it) {
			out = append(out, it)
		}
	}
	return out, nil
}

// stateBuffer is one item of the buffers state item.
type stateBuffer struct {
	Path           string `json:"path"`
	Content        string `json:"content"`
	CursorPosition any    `json:"cursorPosition"`
	Dirty          bool   `json:"dirty"`
}

// getSessionState assembles the requested items (6.6, 6.7); missing plan or
// phase are null (EC-37).
func (d *Deps) getSessionState(ctx context.Context, _ *mcp.CallToolRequest, in StateIn) (*mcp.CallToolResult, map[string]any, error) {
	sess, err := d.sess.Require()
	if err != nil {
		return nil, nil, err
	}
	items, err := in.Items()
	if err != nil {
		return nil, nil, err
	}
	plan, phases, hasPlan, err := d.sess.Plan(ctx, sess.ID)
	if err != nil {
		return nil, nil, err
	}
	current, hasPhase := session.CurrentPhase(phases)
	out := make(map[string]any, len(items))
	for _, it := range items {
		var v any
		switch it {
		case "open_files":
			v = d.sess.OpenFiles()
		case "buffers":
			v = d.stateBuffers()
		case "diffs":
			v, err = d.files.Diffs()
		case "phase":
			v = phaseItem(current, hasPhase)
		case "plan":
			v = planItem(plan, phases, hasPlan)
		case "progress":
			v, err = d.progressItem(ctx, phases)
		case "hints":
			v, err = d.hintsItem(ctx, current, hasPhase)
		case "session":
			v = sessionItem(sess)
		case "dreyfus":
			v, err = d.dreyfusItem(ctx)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", it, err)
		}
		out[it] = v
	}
	return nil, out, nil
}

func (d *Deps) stateBuffers() []stateBuffer {
	out := []stateBuffer{}
	for _, b := range d.files.Buffers() {
		out = append(out, stateBuffer{Path: b.Path, Content: b.Content, CursorPosition: b.CursorPosition, Dirty: b.Dirty})
	}
	return out
}

func phaseItem(ph coach.Phase, ok bool) any {
	if !ok {
		return nil
	}
	return map[string]any{"id": ph.ID, "number": ph.Number, "title": ph.Title, "status": ph.Status, "hintLevel": ph.HintLevel}
}

func planItem(plan coach.Plan, phases []coach.Phase, ok bool) any {
	if !ok {
		return nil
	}
	list := make([]map[string]any, 0, len(phases))
	for _, ph := range phases {
		list = append(list, map[string]any{"number": ph.Number, "title": ph.Title, "status": ph.Status})
	}
	return map[string]any{"id": plan.ID, "phases": list}
}

// progressItem lists the progress events of every phase of the plan,
// phase by phase, each in chronological order.
func (d *Deps) progressItem(ctx context.Context, phases []coach.Phase) (any, error) {
	out := []map[string]any{}
	for _, ph := range phases {
		evs, err := d.store.ProgressEvents(ctx, ph.ID)
		if err != nil {
			return nil, err
		}
		for _, ev := range evs {
			var data any
			if len(ev.Data) > 0 {
				data = json.RawMessage(ev.Data)
			}
			out = append(out, map[string]any{"eventType": ev.EventType, "data": data,
				"createdAt": ev.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"), "phaseNumber": ph.Number})
		}
	}
	return out, nil
}

// hintsItem returns the current phase's stored hints split by type.
func (d *Deps) hintsItem(ctx context.Context, ph coach.Phase, ok bool) (any, error) {
	out := map[string]any{"fileHints": []coach.PhaseHint{}, "lineHints": []coach.PhaseHint{}}
	if !ok {
		return out, nil
	}
	for key, typ := range map[string]coach.HintType{"fileHints": coach.HintTypeFile, "lineHints": coach.HintTypeLine} {
		hs, err := d.store.PhaseHints(ctx, ph.ID, typ)
		if err != nil {
			return nil, err
		}
		if hs != nil {
			out[key] = hs
		}
	}
	return out, nil
}

func sessionItem(s coach.Session) any {
	m := map[string]any{"id": s.ID, "projectDir": s.ProjectDir, "startedAt": s.StartedAt.UTC().Format("2006-01-02T15:04:05.000Z")}
	if s.IssueNumber != nil {
		m["issueNumber"] = *s.IssueNumber
	}
	if s.IssueTitle != "" {
		m["issueTitle"] = s.IssueTitle
	}
	return m
}

func (d *Deps) dreyfusItem(ctx context.Context) (any, error) {
	list, err := d.store.DreyfusAssessments(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, 0, len(list))
	for _, a := range list {
		out = append(out, map[string]any{"skillArea": a.SkillArea, "stage": a.Stage, "confidence": a.Confidence})
	}
	return out, nil
}
