package cli

import (
	"context"
	"log/slog"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/explain"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/practice"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/memory"
)

// coachModels is what the model-driven coaching features (stories 9–12)
// share: the process's one Claude client, writing every call to
// api_call_log, and the memory store. Without ANTHROPIC_API_KEY the client
// answers every call with llm.ErrNoModel, which the features report as a
// clear "no model configured" error.
type coachModels struct {
	llm      *llm.Client
	mem      memory.Store // nil when the memory backend could not be opened
	coaching *coaching.Service
	explain  *explain.Service
	practice *practice.Service
	bg       *wsapi.Background
}

// openCoachModels creates the Claude client, opens the memory store (a
// backend that cannot be opened is logged and the features run without
// memory, D38) and the story 9 and 11 services. Shutdown cancels and waits
// for running UI-driven calls, then closes the memory store, before the
// action queue and the database close.
func openCoachModels(ctx context.Context, a *app, st *store.Store, al *actionlog.Logger, sess *session.Service, log *slog.Logger) *coachModels {
	m := &coachModels{llm: llm.FromConfig(a.cfg, al, log), bg: wsapi.NewBackground()}
	if !m.llm.Available() {
		log.Warn("no Claude model configured: coaching pipeline, wrap-up, Explain This and reviews answer \"no model configured\"")
	}
	mem, err := a.openedDatabases(ctx).memory.take()
	if err != nil {
		log.Error("memory store unavailable; coaching runs without memories", "err", err)
	} else {
		m.mem = mem
		a.mem = mem
		a.onClose("memory", func(context.Context) error { return mem.Close() })
		migrateMemoryProjects(ctx, mem, st, log)
	}
	var cmem coaching.Memory
	if m.mem != nil {
		cmem = m.mem
	}
	m.coaching = coaching.New(coaching.Options{Store: st, Session: sess, Actions: al, LLM: m.llm, Memory: cmem, Log: log})
	m.explain = explain.New(st, sess, m.llm, log)
	m.practice = practice.New(st, sess, m.llm, log)
	a.onClose("model calls", m.bg.Close)
	return m
}

// extensions are the WebSocket handlers of story 11.
func (m *coachModels) extensions() wsapi.Extensions {
	return wsapi.Extensions{
		Explain:        wsapi.ExplainHandler(m.explain, m.bg),
		Review:         wsapi.ReviewHandler(m.practice, m.bg),
		SubmitSolution: wsapi.SubmitSolutionHandler(m.practice, m.bg),
		OpenKata:       wsapi.OpenKataHandler(m.practice),
	}
}

// mcpTools registers the coaching tools of story 9.
func (m *coachModels) mcpTools() func(*mcpapi.Server, *mcpapi.Deps) {
	return mcpapi.CoachingTools(m.coaching)
}

// runPendingWrapUps runs, in the background at start, the wrap-ups left
// pending by an earlier run (coaching.RunPending) and announces each with
// session:completed.
func (m *coachModels) runPendingWrapUps(dataDir string, hub *wsapi.Hub, log *slog.Logger) {
	m.bg.Go(context.Background(), func(ctx context.Context) { // ends with the server (Close), not a connection
		n := m.coaching.RunPending(ctx, dataDir, announceWrapUp(hub))
		if n > 0 {
			log.Info("pending session wrap-ups run", "count", n)
		}
	})
}

// wrapUpEditorEnds runs the wrap-up of a session the editor ended
// (session:end logs session_ended), in the background, as soon as it ends:
// the wrap-up runs once per session whoever ends it (its claim in the store
// makes a later paige_end_session answer alreadyCompleted). Offline, or when
// the model fails, it stays pending for paige_end_session or the next start.
func (m *coachModels) wrapUpEditorEnds(bus *actionlog.Bus, hub *wsapi.Hub, log *slog.Logger) {
	if !m.llm.Available() {
		return
	}
	sub := bus.Subscribe(64)
	announce := announceWrapUp(hub)
	m.bg.Go(context.Background(), func(ctx context.Context) {
		defer sub.Unsubscribe()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-sub.C():
				if !ok {
					return
				}
				if e.Type != coach.ActionSessionEnded {
					continue
				}
				w, err := m.coaching.WrapUpSession(ctx, e.SessionID, "")
				if err != nil {
					log.Warn("wrap-up after session:end left pending", "session", e.SessionID, "err", err)
					continue
				}
				if !w.AlreadyCompleted {
					announce(w)
				}
			}
		}
	})
}

// announceWrapUp broadcasts a finished wrap-up as session:completed.
func announceWrapUp(hub *wsapi.Hub) func(coaching.WrapUp) {
	return func(w coaching.WrapUp) {
		hub.Broadcast(wsapi.TypeSessionCompleted, wsapi.SessionCompleted{SessionID: w.SessionID, KnowledgeGaps: w.KnowledgeGaps,
			KataSpecs: w.KataSpecs, DreyfusUpdates: w.DreyfusUpdates, MemoriesStored: w.MemoriesStored})
	}
}

// migrateMemoryProjects re-keys memories stored under a project's base name
// (before the project identity) to their session's identity; a failure is
// logged and the memories stay readable by cross-project recall.
func migrateMemoryProjects(ctx context.Context, mem memory.Store, st *store.Store, log *slog.Logger) {
	ed, ok := mem.(memory.Editor)
	if !ok {
		return
	}
	n, err := coaching.MigrateMemoryProjects(ctx, ed, st)
	if err != nil {
		log.Warn("memories keep their old project keys", "err", err)
	} else if n > 0 {
		log.Info("memories re-keyed to their project identity", "count", n)
	}
}
