// Package coaching runs Paige's two model-driven coaching flows (spec story
// 9): the pipeline entry that turns Claude Code's plan into phased,
// memory-aware coaching, and the session wrap-up that learns from a finished
// session. It also holds what the UI-driven calls of story 11 share: the
// Dreyfus stage lookup ([StageFor]) and human-readable model errors
// ([UserMessage]).
//
// # Pipeline entry ([Service.RunPipeline])
//
//  1. the active session (else [session.ErrNoActiveSession]) and a model
//     (else [llm.ErrNoModel]: nothing is queried, called or stored);
//  2. the Dreyfus assessments, reduced to the stage that fits the issue;
//  3. queryMemories(issue + plan, 10) — a backend that is down answers []
//     (and recovers lazily), which skips the next step (EC-55);
//  4. Haiku memory filter; a failure is logged and the coach runs with no
//     memories (D48);
//  5. Sonnet coach agent (retried once on transient errors) — the only
//     required step: on failure nothing is stored and the error is returned;
//     6–8. plan, phases and hints in ONE transaction;
//  9. coaching_pipeline logged.
//
// Steps 10–12 (coaching:plan_ready, the first phase's hints through
// editor:highlight_lines and explorer:hint_files, the tool result) speak the
// editor protocol and are done by the caller with the returned [Plan]
// (internal/coach/mcpapi, tool paige_run_coaching_pipeline).
//
// # Session wrap-up ([Service.EndSession])
//
// Knowledge gap extraction (Sonnet), Dreyfus assessment (Sonnet) and memory
// summarisation (Haiku) each run best-effort (D49): a failure is logged and
// counted as zero, and the next step runs. The session is then always
// completed (session_ended and session_end logged), even when the caller's
// context is cancelled mid-way. The wrap-up runs once per session: its
// state is sessions.wrapup_status, claimed atomically; a call for a session
// already wrapped up is a no-op (EC-62); with no active session EndSession
// wraps up the latest session if it ended (editor's session:end) without
// one. [Service.RunPending] runs, at server start, the wrap-ups queued by
// Claude Code's SessionEnd hook while the server was down ([QueueWrapUp])
// and those left pending. The caller broadcasts session:completed with the
// returned [WrapUp].
//
// Every model call goes through internal/llm, so each attempt is written to
// api_call_log. A Service is safe for concurrent use; wrap-ups are
// serialised.
package coaching

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/memory"
)

// Memory is the part of the memory store the flows use; memory.Store
// satisfies it.
type Memory interface {
	AddMemories(ctx context.Context, sessionID, project string, memories []memory.Memory) (int, error)
	QueryMemories(ctx context.Context, q memory.Query) ([]memory.Result, error)
}

// ActionLogger writes an action for an explicit session;
// *actionlog.Logger satisfies it.
type ActionLogger interface {
	LogSession(ctx context.Context, sessionID string, t coach.ActionType, data any) error
}

// Options configure [New]. Store, Session, Actions and LLM are required;
// Memory may be nil (no memory: the pipeline runs without memories and the
// wrap-up stores none).
type Options struct {
	Store   *store.Store
	Session *session.Service
	Actions ActionLogger
	LLM     *llm.Client
	Memory  Memory
	Log     *slog.Logger // nil discards
}

// Service runs the coaching flows. Create it with [New].
type Service struct {
	st      *store.Store
	sess    *session.Service
	actions ActionLogger
	llm     *llm.Client
	mem     Memory
	log     *slog.Logger

	wrapMu sync.Mutex // serialises EndSession (EC-62)
}

// New returns a Service; it panics if a required option is nil (a wiring bug).
func New(opts Options) *Service {
	if opts.Store == nil || opts.Session == nil || opts.Actions == nil || opts.LLM == nil {
		panic("coaching: Store, Session, Actions and LLM are required")
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{st: opts.Store, sess: opts.Session, actions: opts.Actions, llm: opts.LLM,
		mem: opts.Memory, log: opts.Log}
}

// logAction writes an action for sessionID; a failure is logged, never
// returned: the flow itself succeeded.
func (s *Service) logAction(ctx context.Context, sessionID string, t coach.ActionType, data any) {
	if err := s.actions.LogSession(ctx, sessionID, t, data); err != nil {
		s.log.Error("cannot log action", "action", string(t), "session", sessionID, "err", err)
	}
}

// logActive logs an action of the active session through the session's
// ordered writer; a failure is logged, never returned.
func (s *Service) logActive(ctx context.Context, t coach.ActionType, data any) {
	if err := s.sess.Log(ctx, t, data); err != nil {
		s.log.Error("cannot log action", "action", string(t), "err", err)
	}
}

// ProjectName is the memory metadata "project" of a session: the project
// identity of its directory ([ProjectKey]), never a base name (the spec's
// "app-alpha" would make two repositories called "api" share memories).
func ProjectName(sess coach.Session) string {
	if sess.ProjectDir == "" {
		return ""
	}
	return ProjectKey(sess.ProjectDir)
}

func ms(d time.Duration) int64 { return d.Milliseconds() }
