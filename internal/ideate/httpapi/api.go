// Package httpapi serves GhostPath's REST + SSE API under /api/v1/: health
// and readiness, session CRUD, cancel, the agent stream, user input and the
// final spec download (the spec's API map, docs/ghostpath.md).
//
// # Runs
//
// An agent run is not tied to the HTTP request that started it: it runs in
// its own goroutine, its events are encoded once and kept for the run's
// life, and any number of streams (the request that started it, a reload of
// the page, a second tab) replay them from the start and follow live. A
// client that disconnects does not stop the run; POST cancel does, and so
// does [API.Close]. At most one run per session exists at a time: user input
// while a run is in progress answers 409 CONCURRENCY_CONFLICT.
//
// # Resuming
//
// The runner persists state and history after every turn. GET stream on a
// session paused for the user re-sends the pending prompt (premises,
// ask_user or final_spec) instead of starting over; on a session whose run
// was interrupted (restart, cancel of a created session) it continues the
// run from the last persisted turn. At start, [API.ResumeInterrupted]
// continues the runs the process stopping interrupted (within a window)
// without waiting for their page to open; failed and cancelled runs wait
// for the user.
package httpapi

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/core"
)

// Version is reported by the liveness probe.
const Version = "4.0.0"

// Options configure an [API]. Repo and Runner are required.
type Options struct {
	Repo   core.Repository
	Runner *agent.Runner
	Logger *slog.Logger // nil: discard
	// CORSOrigins are the origins allowed to call the API from a browser
	// (CORS_ORIGINS); nil means the spec's default, the Vite dev server.
	CORSOrigins []string
	// Heartbeat is the interval of SSE keep-alive comments; zero means 15 s.
	Heartbeat time.Duration
	// DisconnectGrace is how long a run goes on once the last stream
	// following it closed (the page was closed) before it is cancelled, so
	// a reload that follows it again within the grace loses nothing; zero
	// means [DefaultDisconnectGrace].
	DisconnectGrace time.Duration
	// ResumeWindow bounds which interrupted runs [API.ResumeInterrupted]
	// continues at start: those whose last turn was saved at most this long
	// ago. Zero means [DefaultResumeWindow]; negative resumes none.
	ResumeWindow time.Duration
	Now          func() time.Time
}

// DefaultResumeWindow is [Options.ResumeWindow] when zero.
const DefaultResumeWindow = time.Hour

// DefaultCORSOrigins is the spec's default: the Vite dev server.
var DefaultCORSOrigins = []string{"http://localhost:5173", "http://127.0.0.1:5173"}

// API is the GhostPath HTTP API. It is safe for concurrent use.
type API struct {
	repo   core.Repository
	runner *agent.Runner
	runs   *runManager
	log    *slog.Logger
	o      Options
}

// DefaultDisconnectGrace is [Options.DisconnectGrace] when zero.
const DefaultDisconnectGrace = 15 * time.Second

// New returns the API; call [API.Close] to stop its runs.
func New(opts Options) *API {
	o := opts
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.CORSOrigins == nil {
		o.CORSOrigins = DefaultCORSOrigins
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 15 * time.Second
	}
	if o.DisconnectGrace <= 0 {
		o.DisconnectGrace = DefaultDisconnectGrace
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ResumeWindow == 0 {
		o.ResumeWindow = DefaultResumeWindow
	}
	return &API{repo: o.Repo, runner: o.Runner, runs: newRunManager(o.Logger), log: o.Logger, o: o}
}

// Mux is where [API.Routes] registers the routes; *http.ServeMux
// satisfies it.
type Mux interface {
	Handle(pattern string, h http.Handler)
}

// Routes registers every route of the API on mux.
func (a *API) Routes(mux Mux) {
	h := func(pattern string, handler http.Handler) { mux.Handle(pattern, a.middleware(handler)) }
	h("GET /api/v1/health/{$}", a.handleLiveness())
	h("GET /api/v1/health", a.handleLiveness())
	h("GET /api/v1/health/ready", a.handleReadiness())
	h("POST /api/v1/sessions", a.handleCreate())
	h("GET /api/v1/sessions", a.handleList())
	h("GET /api/v1/sessions/{id}", a.handleGet())
	h("PATCH /api/v1/sessions/{id}", a.handleRename())
	h("DELETE /api/v1/sessions/{id}", a.handleDelete())
	h("POST /api/v1/sessions/{id}/cancel", a.handleCancel())
	h("GET /api/v1/sessions/{id}/stream", a.handleStream())
	h("POST /api/v1/sessions/{id}/user-input", a.handleUserInput())
	h("GET /api/v1/sessions/{id}/spec", a.handleSpec())
	h("GET /api/v1/sessions/{id}/export", a.handleExport())
	h("OPTIONS /api/v1/", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	h("/api/v1/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.writeError(w, r, core.NotFound("Route", r.Method+" "+r.URL.Path))
	}))
}

// Handler returns a mux serving only the API (tests, standalone use).
func (a *API) Handler() http.Handler {
	mux := http.NewServeMux()
	a.Routes(mux)
	return mux
}

// Shutdown cancels every run so their streams end; it returns at once. Each
// open stream receives a final error SERVER_SHUTTING_DOWN and done {error:
// true} before it closes; the runs' last turns are persisted, so streaming
// a session again after a restart resumes it.
func (a *API) Shutdown() { a.runs.shutdown() }

// Close cancels every run and waits, until ctx ends, for them to persist
// their last turn.
func (a *API) Close(ctx context.Context) error { return a.runs.close(ctx) }

// middleware recovers panics as INTERNAL_ERROR and answers CORS.
func (a *API) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				a.log.Error("ghostpath: handler panicked", "path", r.URL.Path, "panic", p)
				a.writeError(w, r, core.Internal())
			}
		}()
		if origin := r.Header.Get("Origin"); origin != "" && slices.Contains(a.o.CORSOrigins, origin) {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Add("Vary", "Origin")
			if r.Method == http.MethodOptions {
				w.Header().Set("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS")
				w.Header().Set("Access-Control-Allow-Headers", strings.Join([]string{"Content-Type", "Accept"}, ", "))
			}
		}
		next.ServeHTTP(w, r)
	})
}
