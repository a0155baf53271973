// Package mcpapi is the MCP tool surface Claude Code uses (spec story 6):
// read tools that return buffers, open files, diffs and the session state,
// and UI control tools that broadcast to the editor over the WebSocket hub.
//
// # Invariants
//
//   - Every tool is registered in one place, [addTools], with typed In/Out
//     through [AddTool], which is mcp.AddTool plus the input caps: schemas
//     inferred from the types, arguments validated against them, the
//     output marshalled once as structured and text content.
//   - The official SDK answers every MCP request ([Handler] is its
//     Streamable HTTP handler); sessions idle for the configured time are
//     closed by the SDK's own session timeout.
//   - Every input is checked against package limits (see limits.go)
//     before its handler runs; an input over a limit is a tool error
//     naming the field, the limit and the value.
//   - No tool writes a file (FR-081): the Files interface has no write method.
//   - Every call is logged as mcp_tool_call {toolName, sessionId}, committed
//     before its answer whatever the client does with its connection, plus
//     the tool's own action (phase_started / phase_completed,
//     coaching_message, file_hints_applied, decorations_applied). With no
//     active session the actions are discarded with a warning (EC-17) and
//     the tool still works, except paige_get_session_state and
//     paige_update_phase, which need the session and answer the tool error
//     "No active session" (scenario 6.17).
//   - Tool failures are tool errors (IsError results the model sees), never
//     protocol errors; a failed tool broadcasts nothing (scenario 6.18).
//
// The coaching tools paige_run_coaching_pipeline and paige_end_session
// (story 9) and the knowledge tools paige_search_knowledge and
// paige_get_knowledge ([KnowledgeTools]) are added through [Options.Extra].
package mcpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/limits"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/workspace"
)

// Files is the read side of the workspace; *workspace.Workspace satisfies it.
type Files interface {
	ReadFile(path string) (workspace.File, error)
	Buffer(path string) (workspace.Buffer, bool, error)
	Buffers() []workspace.Buffer
	Diff(path string) (string, error)
	Diffs() ([]workspace.FileDiff, error)
}

// Store is the database reads the session state needs; *store.Store satisfies it.
type Store interface {
	PhaseHints(ctx context.Context, phaseID string, typ coach.HintType) ([]coach.PhaseHint, error)
	ProgressEvents(ctx context.Context, phaseID string) ([]coach.ProgressEvent, error)
	DreyfusAssessments(ctx context.Context) ([]coach.DreyfusAssessment, error)
}

// Broadcaster sends a message to every editor client; *wsapi.Hub satisfies it.
type Broadcaster interface {
	Broadcast(typ string, payload any)
}

// Options configure [New]. Files, Store, Session and Hub are required.
type Options struct {
	Files   Files
	Store   Store
	Session *session.Service
	Hub     Broadcaster
	Log     *slog.Logger // nil discards
	Version string
	// Starter, if non-nil, registers paige_start_session, which starts a
	// session as session:start does.
	Starter Starter
	// Extra, if non-nil, registers more tools (story 9's coaching tools)
	// with [AddTool] after the built-in ones; their calls are logged like
	// the others.
	Extra func(s *Server, d *Deps)
}

// Server is Paige's MCP server: the SDK's server with every tool. Tools
// are added while wiring, before the handler serves.
type Server struct {
	*mcp.Server
}

// Deps is what the tool handlers share.
type Deps struct {
	files Files
	store Store
	sess  *session.Service
	hub   Broadcaster
	log   *slog.Logger
}

// Instructions tell the client what the server is for.
const Instructions = `Paige coaches the developer in the editor. Read their unsaved buffers, ` +
	`open files and diffs with the paige_get_* tools; guide them with highlights, file hints, ` +
	`phase updates and messages. Paige never writes files: the developer does.`

// New returns the MCP server with every tool registered. It panics if a
// required option is nil (a wiring bug).
func New(opts Options) *Server {
	if opts.Files == nil || opts.Store == nil || opts.Session == nil || opts.Hub == nil {
		panic("mcpapi: Files, Store, Session and Hub are required")
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	d := &Deps{files: opts.Files, store: opts.Store, sess: opts.Session, hub: opts.Hub, log: opts.Log}
	s := &Server{Server: mcp.NewServer(&mcp.Implementation{Name: "paige", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Logger:       opts.Log,
		GetSessionID: uuid.NewString, // FR-009: UUID session ids
	})}
	s.AddReceivingMiddleware(logToolCalls(d))
	addTools(s, d)
	if opts.Starter != nil {
		addStartTool(s, d, opts.Starter)
	}
	if opts.Extra != nil {
		opts.Extra(s, d)
	}
	return s
}

// Handler serves s over Streamable HTTP (POST, GET, DELETE on one path)
// with the SDK's handler, stateful (each client gets its own session and
// Mcp-Session-Id) and answering application/json where the client accepts
// it. A session whose client sends no request for idle is closed and
// forgotten by the SDK's session timeout (its client gets 404 and starts a
// new one, as the MCP spec says); an open GET stream does not count as
// activity, a request in progress does. idle <= 0 means sessions never
// expire. A request body over [limits.MessageBytes] is refused with 413.
//
// Browsers and Hosts are checked by the origin policy in front of every
// route (server.Policy); the SDK's own DNS-rebinding protection stays on as
// a second lock: over a loopback connection it refuses a non-loopback Host.
func Handler(s *Server, log *slog.Logger, idle time.Duration) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.Server },
		&mcp.StreamableHTTPOptions{Logger: log, JSONResponse: true, SessionTimeout: max(idle, 0),
			MaxRequestBodyBytes: limits.MessageBytes})
}

// CloseSessions closes every open MCP session and returns how many there were.
func CloseSessions(s *Server) int {
	n := 0
	for ss := range s.Sessions() {
		_ = ss.Close()
		n++
	}
	return n
}

// logToolCalls logs every tools/call as mcp_tool_call {toolName,
// sessionId, mcpSessionId} before it is handled, including calls the SDK
// then rejects (unknown tool, arguments that fail the schema); the answer
// waits for the row's commit (logCall).
func logToolCalls(d *Deps) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || method != "tools/call" || call.Params == nil {
				return next(ctx, method, req)
			}
			finish := d.logCall(ctx, call)
			res, err := next(ctx, method, req)
			if failed := finish(); failed != nil {
				return failed, nil
			}
			return res, err
		}
	}
}

// logCall submits the mcp_tool_call row of call. The row is committed
// while the tool runs and the answer waits for the commit (finish): a
// client never holds an answer for a call the action log could still
// lose. If the row cannot be stored, finish returns the tool error saying
// so, which the client gets instead of the tool's answer (tool errors,
// never protocol errors); otherwise nil.
//
// The row's submit and commit are detached from ctx's cancellation: a
// call that reached its tool is logged whatever the client does with its
// connection meanwhile (issue 29: a client that half-closed its
// connection cancelled the wait, and got "could not be recorded" for a
// row that was then lost or written anyway). The wait is bounded by the
// writer's commit, which never waits for a client.
func (d *Deps) logCall(ctx context.Context, call *mcp.CallToolRequest) (finish func() *mcp.CallToolResult) {
	ctx = context.WithoutCancel(ctx)
	data := map[string]any{"toolName": call.Params.Name, "sessionId": d.sess.ActiveID()}
	if call.Session != nil {
		data["mcpSessionId"] = call.Session.ID()
	}
	logged := d.sess.Submit(ctx, coach.ActionMCPToolCall, data)
	return func() *mcp.CallToolResult {
		werr := logged.Wait(ctx)
		if werr == nil {
			return nil
		}
		d.log.Error("cannot log action", "action", string(coach.ActionMCPToolCall), "tool", call.Params.Name, "err", werr)
		msg := fmt.Sprintf("%s: the call could not be recorded in the action log: %v", call.Params.Name, werr)
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
	}
}

// Session returns the live session state, for extra tools.
func (d *Deps) Session() *session.Service { return d.sess }

// Broadcast sends a message to the editor, for extra tools.
func (d *Deps) Broadcast(typ string, payload any) { d.hub.Broadcast(typ, payload) }

// logAction logs a tool's own action (coaching_message, …) before its
// answer, detached from ctx's cancellation like the call's row (logCall).
func (d *Deps) logAction(ctx context.Context, t coach.ActionType, data any) {
	if err := d.sess.Log(context.WithoutCancel(ctx), t, data); err != nil {
		d.log.Error("cannot log action", "action", string(t), "err", err)
	}
}
