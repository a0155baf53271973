// Package observer is Paige's proactive coaching sensor (spec story 10): a
// per-session loop that watches the action log's event bus, decides when
// the user might need a nudge, asks Haiku (observer triage) and delivers
// observer:nudge to the editor.
//
// # Design
//
// A [Manager] owns at most one running Observer, the one of the active
// session (D54). It follows the session lifecycle ([Manager.OnSessionEvent]
// is a session.Service subscriber): a started or resumed session gets a
// fresh Observer (unmuted, D62) and observer:status {active: true}; an
// ended one stops it and observer:status {active: false} is broadcast.
//
// One goroutine per Observer reads the bus subscription and the 30 s idle
// ticker and handles each event in order. Each event of its session goes
// through the pure core: [State.Observe]
// records user activity and returns the trigger it fires (file_open,
// file_save, the 5th buffer update, phase transitions), [State.IdleTick]
// does the same for the timer, and [Suppress] decides — before any model
// call — whether to evaluate: muted (silent), cooldown and flow state
// (logged as nudge_suppressed), evaluation already in progress (silent,
// EC-65). An evaluation runs in its own goroutine so the loop keeps
// counting activity: it reads the context snapshot from SQLite, calls Haiku
// through llm.Call, and [Decide] maps the reply to nudge, low-confidence
// suppression, quiet, or a contradictory reply (EC-67, warning only).
//
// Time comes from a [Clock], so tests drive the idle timer and the cooldown
// without sleeping.
//
// # Deviations from the spec
//
//   - nudge_suppressed is logged once per suppressed stretch (the first
//     trigger suppressed for a reason), not once per trigger: a burst of
//     edits in flow state logs one row. An evaluation, or another reason,
//     starts a new stretch.
//   - Only user activity refreshes lastActivityTimestamp and counts toward
//     flow state: the Observer's own rows (nudge_sent, nudge_suppressed,
//     observer_muted), phase transitions made by Claude Code and idle_start
//     do not, or the Observer would keep itself in flow.
//   - The snapshot's recent actions leave out nudge_suppressed rows, which a
//     burst of suppressed triggers would otherwise fill the window with.
//   - A nudge whose reply arrives after the user muted the Observer is
//     dropped like one arriving after the session ended (EC-66).
package observer

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
)

// ErrNoObserver is returned by [Manager.SetMuted] when no session is active
// (EC-70).
var ErrNoObserver = errors.New("observer: no active session")

// Clock is the Observer's time source; tests inject a manual one.
type Clock interface {
	Now() time.Time
	NewTicker(d time.Duration) Ticker
}

// Ticker is the part of *time.Ticker the idle timer uses.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// Store is what the Observer reads; *store.Store satisfies it.
type Store interface {
	RecentActions(ctx context.Context, q store.ActionQuery) ([]coach.Action, error)
	LastAction(ctx context.Context, sessionID string, t coach.ActionType) (coach.Action, error)
	LatestPlan(ctx context.Context, sessionID string) (coach.Plan, error)
	Phases(ctx context.Context, planID string) ([]coach.Phase, error)
	DreyfusAssessments(ctx context.Context) ([]coach.DreyfusAssessment, error)
}

// ActionLogger writes action_log rows; *actionlog.Logger satisfies it.
type ActionLogger interface {
	LogSession(ctx context.Context, sessionID string, t coach.ActionType, data any) error
}

// Notifier tells every editor what the Observer does; the WebSocket
// adapter's wsapi.ObserverNotifier sends them as observer:status and
// observer:nudge. With no editor connected a notice is lost (EC-68).
// Implementations must be safe for concurrent use.
type Notifier interface {
	Status(Status)
	Nudge(Nudge)
}

// Status is the Observer's state as the editors see it (observer:status).
type Status struct {
	Active         bool    `json:"active"`
	Muted          bool    `json:"muted"`
	LastEvaluation *string `json:"lastEvaluation"` // ISO 8601; nil before the first evaluation
}

// Nudge asks the terminal side to nudge the user (observer:nudge).
type Nudge struct {
	Signal     string         `json:"signal"`
	Confidence float64        `json:"confidence"`
	Context    map[string]any `json:"context"`
}

// DefaultEvalTimeout bounds one evaluation (snapshot and triage call).
const DefaultEvalTimeout = 60 * time.Second

// Options configure [New]. Store, Actions, Bus, LLM and Notifier are required.
type Options struct {
	Store   Store
	Actions ActionLogger
	Bus     *actionlog.Bus
	LLM     *llm.Client
	// Notifier receives observer:status and observer:nudge.
	Notifier Notifier
	// Clock: if nil, the real clock.
	Clock Clock
	// Log receives warnings; nil discards.
	Log *slog.Logger
	// EvalTimeout: if zero, DefaultEvalTimeout.
	EvalTimeout time.Duration
}

// Manager runs the Observer of the active session. It is safe for
// concurrent use. Create it with [New]; Close it at shutdown.
type Manager struct {
	o      Options
	log    *slog.Logger
	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // loops and evaluations

	mu     sync.Mutex
	cur    *run // guarded by mu; nil when no session is observed
	closed bool // guarded by mu

	onEvent  func(actionlog.Event) // test hook: after each bus event is handled
	onFinish func()                // test hook: after each evaluation ends
}

// New returns a Manager; it panics if a required option is missing (a
// wiring bug).
func New(o Options) *Manager {
	if o.Store == nil || o.Actions == nil || o.Bus == nil || o.LLM == nil || o.Notifier == nil {
		panic("observer: Store, Actions, Bus, LLM and Notifier are required")
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.EvalTimeout <= 0 {
		o.EvalTimeout = DefaultEvalTimeout
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{o: o, log: o.Log, ctx: ctx, cancel: cancel}
}

// OnSessionEvent follows the session lifecycle; register it with
// session.Service.Subscribe. Started and resumed sessions are observed,
// ended ones stop being observed.
func (m *Manager) OnSessionEvent(_ context.Context, e session.Event) {
	switch e.Kind {
	case session.Started, session.Resumed:
		m.Start(e.Session.ID)
	case session.Ended:
		m.Stop(e.Session.ID)
	}
}

// Start observes sessionID (FR-129): subscribe to the bus, start the idle
// timer, broadcast observer:status {active: true, muted: false}. Observing
// another session stops that one first; starting the observed session again
// does nothing. After Close, Start does nothing.
func (m *Manager) Start(sessionID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || sessionID == "" || (m.cur != nil && m.cur.st.SessionID == sessionID) {
		return
	}
	if m.cur != nil {
		m.stopLocked()
	}
	now := m.o.Clock.Now()
	r := &run{m: m, sub: m.o.Bus.Subscribe(0), ticker: m.o.Clock.NewTicker(IdleCheckInterval),
		stop: make(chan struct{}), done: make(chan struct{}),
		st: State{SessionID: sessionID, Active: true, LastActivity: now}}
	m.cur = r
	m.wg.Add(1)
	go r.loop()
	m.o.Notifier.Status(r.status())
	m.log.Info("observer started", "session", sessionID)
}

// Stop stops observing sessionID (FR-130): unsubscribe, clear the idle
// timer, mark the state inactive, broadcast observer:status {active: false,
// muted: false}. An evaluation in flight completes and its result is
// discarded (EC-66). Stopping a session that is not observed does nothing.
func (m *Manager) Stop(sessionID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur != nil && m.cur.st.SessionID == sessionID {
		m.stopLocked()
	}
}

// stopLocked stops the current run and waits for its loop to exit. m.mu
// must be held.
func (m *Manager) stopLocked() {
	r := m.cur
	m.cur = nil
	r.mu.Lock()
	r.st.Active = false
	last := r.st.LastEvaluation
	r.mu.Unlock()
	close(r.stop)
	<-r.done
	m.o.Notifier.Status(Status{Active: false, Muted: false, LastEvaluation: isoOrNil(last)})
	m.log.Info("observer stopped", "session", r.st.SessionID)
}

// SetMuted sets the mute toggle of the observed session (FR-144): the
// state changes, observer_muted {muted} is logged and observer:status
// broadcast. With no observed session it returns [ErrNoObserver] (EC-70).
func (m *Manager) SetMuted(ctx context.Context, muted bool) error {
	m.mu.Lock()
	r := m.cur
	m.mu.Unlock()
	if r == nil {
		m.log.Warn("observer:mute without an active session ignored")
		return ErrNoObserver
	}
	r.mu.Lock()
	r.st.Muted = muted
	st := r.status()
	r.mu.Unlock()
	if err := m.o.Actions.LogSession(ctx, r.st.SessionID, coach.ActionObserverMuted, map[string]any{"muted": muted}); err != nil {
		m.log.Error("observer_muted not logged", "err", err)
	}
	m.o.Notifier.Status(st)
	return nil
}

// Status returns the Observer's current status (inactive when no session
// is observed).
func (m *Manager) Status() Status {
	m.mu.Lock()
	r := m.cur
	m.mu.Unlock()
	if r == nil {
		return Status{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status()
}

// Close stops the Observer, cancels evaluations in flight and waits until
// every goroutine has exited. It is idempotent.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.cur != nil {
		m.stopLocked()
	}
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	return nil
}

func isoOrNil(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format("2006-01-02T15:04:05.000Z")
	return &s
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
func (realClock) NewTicker(d time.Duration) Ticker {
	return realTicker{time.NewTicker(d)}
}

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }
