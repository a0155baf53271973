package mcpapi

import (
	"context"
	"errors"
	"strings"

	"github.com/paige-dev/paige/internal/coach/limits"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// Starter starts a session with session:start's effects; *wsapi.Server
// satisfies it.
type Starter interface {
	StartSession(ctx context.Context, in wsapi.SessionStart, opts wsapi.StartOptions) (wsapi.StartResult, error)
}

// StartIn is paige_start_session's input.
type StartIn struct {
	IssueNumber *int   `json:"issueNumber,omitempty" jsonschema:"GitHub issue number; its title and summary are looked up with gh when no title is given"`
	IssueTitle  string `json:"issueTitle,omitempty" jsonschema:"issue title, if known"`
	Goal        string `json:"goal,omitempty" jsonschema:"what the developer means to do in this session"`
}

// StartOut is paige_start_session's result.
type StartOut struct {
	SessionID    string              `json:"sessionId"`
	IssueContext *wsapi.IssueContext `json:"issueContext" jsonschema:"the issue, or null for a session without one"`
	Resumed      bool                `json:"resumed" jsonschema:"true when the session already active on this issue was kept"`
	Warning      string              `json:"warning,omitempty" jsonschema:"why the issue could not be looked up, if it could not"`
}

// maxGoal bounds the goal logged with session_started.
const maxGoal = 2000

// CheckLimits checks the title and the goal.
func (in StartIn) CheckLimits() error {
	return limits.First(limits.Bytes("issueTitle", in.IssueTitle, limits.TitleBytes),
		limits.Bytes("goal", in.Goal, maxGoal))
}

func addStartTool(s *Server, d *Deps, st Starter) {
	AddTool(s, &mcp.Tool{Name: "paige_start_session",
		Description: "Start the coaching session for an issue, as the editor's session:start does (Paige's " +
			"extension of the spec's tools): the editor shows it, and the session tools and read-only " +
			"enforcement engage. If a session on the same issue is already active it is kept (resumed: true); " +
			"a session on another issue is abandoned. With only issueNumber, the title and summary come from gh."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in StartIn) (*mcp.CallToolResult, StartOut, error) {
			return startSession(ctx, st, in)
		})
}

// startSession validates the input and runs the shared start.
func startSession(ctx context.Context, st Starter, in StartIn) (*mcp.CallToolResult, StartOut, error) {
	if in.IssueNumber != nil && *in.IssueNumber <= 0 {
		return nil, StartOut{}, errors.New("issueNumber must be a positive issue number")
	}
	goal := strings.TrimSpace(in.Goal) // at most maxGoal bytes: CheckLimits ran
	res, err := st.StartSession(ctx, wsapi.SessionStart{IssueNumber: in.IssueNumber, IssueTitle: strings.TrimSpace(in.IssueTitle)},
		wsapi.StartOptions{KeepSame: true, Goal: goal})
	if err != nil {
		return nil, StartOut{}, err
	}
	out := StartOut{SessionID: res.Session.ID, IssueContext: res.Started.IssueContext, Resumed: res.Kept}
	if res.LookupError != nil {
		out.Warning = "issue not looked up: " + res.LookupError.Error()
	}
	return nil, out, nil
}
