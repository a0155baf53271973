package mcpapi

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// PhaseIn is paige_update_phase's input.
type PhaseIn struct {
	Phase  int               `json:"phase" jsonschema:"phase number in the current plan"`
	Status coach.PhaseStatus `json:"status" jsonschema:"pending, active or complete"`
}

// PhaseOut is paige_update_phase's result.
type PhaseOut struct {
	Success bool               `json:"success"`
	Phase   wsapi.PhaseSummary `json:"phase"`
	Changed bool               `json:"changed" jsonschema:"false when the phase already had that status"`
}

// updatePhase persists the status with its timestamps, logs phase_started /
// phase_completed and broadcasts coaching:phase_update (6.13, 6.14); an
// unknown phase is an error (EC-31); the same status is a no-op success
// (EC-32) that broadcasts nothing.
func (d *Deps) updatePhase(ctx context.Context, _ *mcp.CallToolRequest, in PhaseIn) (*mcp.CallToolResult, PhaseOut, error) {
	ph, changed, err := d.sess.UpdatePhase(ctx, in.Phase, in.Status)
	if err != nil {
		return nil, PhaseOut{}, err
	}
	sum := wsapi.PhaseSummaries([]coach.Phase{ph})[0]
	if changed {
		d.hub.Broadcast(wsapi.TypeCoachingPhaseUpdate, wsapi.PhaseUpdate{Phase: sum, Status: string(ph.Status), Description: ph.Description})
	}
	return nil, PhaseOut{Success: true, Phase: sum, Changed: changed}, nil
}

// MessageIn is paige_show_message's input.
type MessageIn struct {
	Message string        `json:"message" jsonschema:"what to tell the developer"`
	Type    string        `json:"type" jsonschema:"info, success, warning, hint or error"`
	Anchor  *wsapi.Anchor `json:"anchor,omitempty" jsonschema:"pin the message to lines of a file"`
}

// showMessage logs coaching_message and broadcasts coaching:message (6.15).
func (d *Deps) showMessage(ctx context.Context, _ *mcp.CallToolRequest, in MessageIn) (*mcp.CallToolResult, Ack, error) {
	if strings.TrimSpace(in.Message) == "" {
		return nil, Ack{}, errors.New("message is required")
	}
	typ := or(in.Type, "info")
	if in.Anchor != nil {
		p, err := d.sess.Normalize(in.Anchor.Path)
		if err != nil {
			return nil, Ack{}, err
		}
		in.Anchor.Path = p
	}
	d.logAction(ctx, coach.ActionCoachingMessage, map[string]any{"messageType": typ})
	d.hub.Broadcast(wsapi.TypeCoachingMessage, wsapi.CoachingMessage{Message: in.Message, Type: typ, Anchor: in.Anchor})
	return nil, Ack{Success: true}, nil
}

// IssueIn is paige_show_issue_context's input: title and summary required
// (FR-078), the catalog's other fields optional (NOTES.md).
type IssueIn struct {
	Title   string   `json:"title" jsonschema:"issue title"`
	Summary string   `json:"summary" jsonschema:"short summary of the issue"`
	Number  int      `json:"number,omitempty" jsonschema:"GitHub issue number"`
	Labels  []string `json:"labels,omitempty"`
	URL     string   `json:"url,omitempty"`
}

// showIssueContext broadcasts coaching:issue_context with everything given (6.16).
func (d *Deps) showIssueContext(_ context.Context, _ *mcp.CallToolRequest, in IssueIn) (*mcp.CallToolResult, Ack, error) {
	if strings.TrimSpace(in.Title) == "" || strings.TrimSpace(in.Summary) == "" {
		return nil, Ack{}, errors.New("title and summary are required")
	}
	d.hub.Broadcast(wsapi.TypeCoachingIssueContext, wsapi.IssueContext{Number: in.Number, Title: in.Title,
		Summary: in.Summary, Labels: in.Labels, URL: in.URL})
	return nil, Ack{Success: true}, nil
}
