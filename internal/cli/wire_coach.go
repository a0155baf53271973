package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/dashboard"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/workspace"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// wireCoach opens the coaching backend — database, workspace, watcher,
// action log, live session state, WebSocket hub, MCP server — and mounts
// /ws and /mcp. Closers are registered as things open, so shutdown runs
// them in the spec's order: MCP sessions, WebSocket connections, watcher,
// timers, database (scenario 1.8). The hub is closed by its closer, not an
// OnShutdown hook: http.Server.Shutdown does not wait for hijacked
// connections, and closing them after the MCP sessions keeps that order.
func wireCoach(ctx context.Context, a *app, mux *routeMux) error {
	log := a.log.With("component", "coach")
	cs, err := openCoachState(ctx, a)
	if err != nil {
		return err
	}
	st, ws, al, sess := cs.store, cs.files, cs.actions, cs.session
	watcher, err := ws.Watch(&workspace.WatchOptions{Logger: log})
	if err != nil {
		return fmt.Errorf("watch PROJECT_DIR: %w", err)
	}
	a.onClose("watcher", func(context.Context) error { return watcher.Close() })

	models := openCoachModels(ctx, a, st, al, sess, log) // wire_coach_models.go: stories 9 and 11
	hub := wsapi.NewHub(log, 0)
	ext := models.extensions()
	openObserverDashboard(a, st, al.Bus(), sess, hub, models, &ext, log) // wire_observer.go: stories 10 and 12
	go wsapi.ForwardTreeUpdates(hub, watcher.Events(), wsapi.TreeUpdateOptions{Tree: ws.Tree, Log: log})
	wss := wsapi.New(wsapi.Options{Log: log, Hub: hub, Session: sess, Version: Version,
		Files: wsapi.WorkspaceFiles{WS: ws, Buffers: al, Log: log}, Extensions: ext,
		Terminal: a.terminalStatus(), ModelConfigured: a.cfg.HasModel(),
		Issues: ghIssues{gh: a.gh(issueLookupTimeout)}})
	a.onClose("websocket connections", func(context.Context) error {
		n := hub.Len()
		hub.Close()
		log.Info("websocket connections closed", "count", n)
		return nil
	})

	mcpSrv := mcpapi.New(mcpapi.Options{Files: ws, Store: st, Session: sess, Hub: hub, Log: log, Version: Version,
		Starter: wss, Extra: withTools(models.mcpTools(), knowledgeTools(a))})
	a.status.sess, a.status.seen = sess, newClaudeCodeSeen(a.cfg.DataDir)
	a.status.sessions = func() (n int) {
		for range mcpSrv.Sessions() {
			n++
		}
		return n
	}
	mcpSrv.AddReceivingMiddleware(a.status.seen.middleware(func(err error) { log.Warn("cannot record Claude Code's first connection", "err", err) }))
	a.onClose("mcp sessions", func(context.Context) error {
		log.Info("mcp sessions closed", "count", mcpapi.CloseSessions(mcpSrv))
		return nil
	})

	models.runPendingWrapUps(a.cfg.DataDir, hub, log)
	models.wrapUpEditorEnds(al.Bus(), hub, log)
	endIdleSessions(a, sess, a.cfg.Learn.CoachIdle, log)
	mux.Handle("GET /ws", wss)
	mux.Handle("/mcp", mcpapi.Handler(mcpSrv, log, a.cfg.MCPSessionTimeout))
	return nil
}

// coachState is what the coach's capabilities share: the database, the
// project's files, the action log and the live session.
type coachState struct {
	store   *store.Store
	files   *workspace.Workspace
	actions *actionlog.Logger
	session *session.Service
}

// openCoachState opens the database (EC-06: a corrupt file is an error),
// the workspace, the action log and the live session state, restoring the
// buffer summaries of a session left active by a previous run.
func openCoachState(ctx context.Context, a *app) (coachState, error) {
	log := a.log.With("component", "coach")
	st, err := store.Open(ctx, a.cfg.DataDir)
	if err != nil {
		return coachState{}, fmt.Errorf("open the coaching database in %s: %w", a.cfg.DataDir, err)
	}
	a.onClose("database", func(context.Context) error { return st.Close() })
	ws, err := workspace.New(a.cfg.ProjectDir, nil)
	if err != nil {
		return coachState{}, fmt.Errorf("PROJECT_DIR: %w", err)
	}
	al := actionlog.New(st, &actionlog.Options{Logger: log})
	a.onClose("timers", al.Close)
	a.calls = al // learn's model calls are recorded in the same api_call_log
	sess, err := session.New(ctx, st, al, &session.Options{ProjectDir: a.cfg.ProjectDir, Normalize: ws.Guard().Normalize,
		Log: log, Batch: st, Bus: al.Bus()})
	if err != nil {
		return coachState{}, err
	}
	a.onClose("action queue", sess.Close)
	if active, ok := sess.Active(); ok {
		al.StartSession(ctx, active.ID)
		log.Info("active coaching session restored", "session", active.ID)
	}
	return coachState{store: st, files: ws, actions: al, session: sess}, nil
}

// issueLookupTimeout bounds the gh run that looks an issue up when a
// session starts with only its number: the start waits for it.
const issueLookupTimeout = 10 * time.Second

// ghIssues looks issues up with the GitHub CLI for session starts.
type ghIssues struct{ gh *dashboard.GH }

func (g ghIssues) LookupIssue(ctx context.Context, number int) (wsapi.IssueContext, error) {
	info, err := g.gh.ViewIssue(ctx, number)
	if err != nil {
		return wsapi.IssueContext{}, err
	}
	return wsapi.IssueContext{Number: info.Number, Title: info.Title, Summary: info.Summary, Labels: info.Labels, URL: info.URL}, nil
}

// serveGCPercent is the GOGC `paige serve` runs with unless GOGC is set.
const serveGCPercent = 400

// tuneGC sets GOGC to [serveGCPercent] unless the user set GOGC (userGOGC
// non-empty), whose choice the runtime already applied. The server's live
// heap is a few MB while every request allocates (an MCP tools/call about
// 340 KB, most of it the SDK's 32 KiB decoder buffers, see
// docs/performance.md): at Go's default 100 the collector runs four times
// as often for a heap that stays small either way (server CPU per sequential
// paige_get_buffer 536 → 411 µs on a loaded 2-core machine).
func tuneGC(log interface{ Debug(string, ...any) }, userGOGC string) {
	if userGOGC != "" {
		return
	}
	debug.SetGCPercent(serveGCPercent)
	log.Debug("GOGC set", "percent", serveGCPercent)
}
