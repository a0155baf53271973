// Package session owns the live coaching state that the WebSocket and MCP
// sides share: the current active session (D27), the open-files set (D29),
// the accumulated editor highlights and explorer hints (D28, never
// persisted), and the start / resume / end lifecycle of the sessions row.
//
// # Invariants
//
//   - At most one session is active. Starting a session while another is
//     active abandons the other one first (its row becomes "abandoned" and
//     session_ended is logged for it).
//   - The active session is cached in memory; the cache is loaded from the
//     database by [New] and changed only by this package, so tools read it
//     without a query.
//   - Paths in the open-files set and the highlights are normalised with the
//     Normalize function given to [New], the same one the buffer cache uses,
//     so "src/a.ts" and "/abs/project/src/a.ts" are one entry.
//   - Actions are logged against the active session; with none active they
//     are discarded with a warning (EC-17), except dashboard_loaded, which
//     is stored with no session.
//   - The mutex is shared by every WebSocket connection and MCP session:
//     work under it is at most linear in the size of one call (hints are
//     a map, paths are normalised before locking), and the accumulated
//     hints and highlights are bounded (package limits).
//   - Acknowledged means committed: [Service.Log] (and [Pending.Wait])
//     return nil only once the action's row is committed, so an answer
//     sent after them (an MCP tool result, fs:save_ack) never speaks for a
//     row a crash could lose. No action is fire-and-forget.
//
// A Service is safe for concurrent use.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/limits"
	"github.com/paige-dev/paige/internal/coach/store"
)

// Errors returned by Service methods.
var (
	// ErrNoActiveSession is returned by operations that need an active
	// session. Its text is the spec's exact MCP error (scenario 6.17).
	//lint:ignore ST1005 the message is a protocol contract
	ErrNoActiveSession = errors.New("No active session")
	// ErrNotFound is returned when a session to resume does not exist.
	ErrNotFound = errors.New("session: not found")
)

// Store is what the Service needs from the coaching database;
// *store.Store satisfies it.
type Store interface {
	CreateSession(ctx context.Context, in store.NewSession) (coach.Session, error)
	Session(ctx context.Context, id string) (coach.Session, error)
	ActiveSession(ctx context.Context) (coach.Session, error)
	SetSessionStatus(ctx context.Context, id string, status coach.SessionStatus) (coach.Session, error)
	LatestPlan(ctx context.Context, sessionID string) (coach.Plan, error)
	Phases(ctx context.Context, planID string) ([]coach.Phase, error)
	SetPhaseStatus(ctx context.Context, id string, status coach.PhaseStatus) (coach.Phase, bool, error)
	AddProgressEvent(ctx context.Context, phaseID, eventType string, data json.RawMessage) (coach.ProgressEvent, error)
}

// ActionLogger writes one action_log row for a session; *actionlog.Logger
// satisfies it (and starts or stops its buffer summaries when it sees
// session_started, session_resumed and session_ended).
type ActionLogger interface {
	LogSession(ctx context.Context, sessionID string, t coach.ActionType, data any) error
}

// EventKind says what happened to a session.
type EventKind string

// Session lifecycle events delivered to subscribers.
const (
	Started EventKind = "started"
	Resumed EventKind = "resumed"
	Ended   EventKind = "ended"
)

// Event is one lifecycle change. For Ended, Session has its final status.
type Event struct {
	Kind    EventKind
	Session coach.Session
}

// Options configure [New]. A zero Options is valid.
type Options struct {
	// ProjectDir is stored in new sessions rows.
	ProjectDir string
	// Normalize maps any path form to the one key used for open files and
	// highlights. If nil, paths are used as given.
	Normalize func(path string) (string, error)
	// Log receives warnings; nil discards.
	Log *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxHints is the most explorer hints the session accumulates. If
	// zero, [limits.Hints].
	MaxHints int
	// Batch and Bus, when both set, make [Service.Log] queue actions for
	// one background writer that stores them in order, everything queued
	// at once in one transaction (group commit, no timer), and publishes
	// them on Bus; Log still returns only once its action is committed.
	// Call [Service.Close] at shutdown. Otherwise Log writes through the
	// ActionLogger at once.
	Batch BatchStore
	Bus   Publisher
}

// Service is the live coaching state. Create it with [New].
type Service struct {
	store   Store
	actions ActionLogger
	opts    Options
	log     *slog.Logger

	writeMu sync.Mutex   // serialises synchronous action writes
	queue   *actionQueue // nil: Log writes synchronously
	warned  sync.Map     // action types warned about without a session

	mu          sync.Mutex
	active      *coach.Session                 // guarded by mu
	openFiles   []string                       // guarded by mu; insertion order
	highlights  map[string][]Highlight         // guarded by mu
	nHighlights int                            // guarded by mu; highlights over all files
	hints       map[string]hintEntry           // guarded by mu; by normalised path
	hintSeq     uint64                         // guarded by mu; last hintEntry.seq
	muted       bool                           // guarded by mu
	subscribers []func(context.Context, Event) // guarded by mu
}

// New returns a Service whose active session is the database's current
// active session, if any.
func New(ctx context.Context, st Store, actions ActionLogger, opts *Options) (*Service, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxHints <= 0 {
		o.MaxHints = limits.Hints
	}
	if o.Normalize == nil {
		o.Normalize = func(p string) (string, error) { return p, nil }
	}
	s := &Service{store: st, actions: actions, opts: o, log: o.Log, highlights: map[string][]Highlight{},
		hints: map[string]hintEntry{}}
	if o.Batch != nil && o.Bus != nil {
		s.queue = newActionQueue(o.Batch, o.Bus, actions, o.Log)
	}
	sess, err := st.ActiveSession(ctx)
	switch {
	case err == nil:
		s.active = &sess
	case !errors.Is(err, store.ErrNotFound):
		return nil, fmt.Errorf("load active session: %w", err)
	}
	return s, nil
}

// Subscribe registers f to be called after every lifecycle change, in
// registration order, outside the Service's lock. Subscribe while wiring.
func (s *Service) Subscribe(f func(context.Context, Event)) {
	s.mu.Lock()
	s.subscribers = append(s.subscribers, f)
	s.mu.Unlock()
}

func (s *Service) notify(ctx context.Context, e Event) {
	s.mu.Lock()
	subs := append([]func(context.Context, Event){}, s.subscribers...)
	s.mu.Unlock()
	for _, f := range subs {
		f(ctx, e)
	}
}

// Active returns the active session and whether there is one.
func (s *Service) Active() (coach.Session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil {
		return coach.Session{}, false
	}
	return *s.active, true
}

// ActiveID returns the active session's id, or "" when there is none.
func (s *Service) ActiveID() string {
	sess, _ := s.Active()
	return sess.ID
}

// Require returns the active session or [ErrNoActiveSession].
func (s *Service) Require() (coach.Session, error) {
	sess, ok := s.Active()
	if !ok {
		return sess, ErrNoActiveSession
	}
	return sess, nil
}

// Log logs an action against the active session and returns once its row
// is committed: a nil error means the action is stored and survives a
// crash of the process, so a caller may acknowledge it. With batching on,
// the action goes through the background writer, which commits whatever
// queued up meanwhile in the same transaction (group commit); otherwise it
// is written at once. With no active session the action is discarded and
// a warning logged once per action type until a session starts (EC-17);
// that is not an error. A type that may be logged outside a session
// (coach.ActionType's Sessionless, i.e. dashboard_loaded) is then stored
// with no session instead.
func (s *Service) Log(ctx context.Context, t coach.ActionType, data any) error {
	return s.Submit(ctx, t, data).Wait(ctx)
}

// Submit is [Service.Log] in two steps: it hands the action to the writer
// and returns at once; Wait on the result returns once the action is
// committed, with Log's error. A caller overlaps the commit with other
// work this way, and acknowledges only after Wait returned nil. Without
// batching (or after [Service.Close]) the action is written before Submit
// returns. The result is nil when there is no active session (EC-17).
func (s *Service) Submit(ctx context.Context, t coach.ActionType, data any) *Pending {
	id := s.ActiveID()
	if id == "" && !t.Sessionless() {
		if _, seen := s.warned.LoadOrStore(t, true); !seen {
			s.log.Warn("no active session; action not logged", "action", string(t))
		}
		return nil
	}
	if s.queue != nil {
		p := s.queue.pending()
		ok, err := s.queue.enqueue(ctx, queued{sessionID: id, t: t, data: data, p: p})
		if err != nil {
			return donePending(fmt.Errorf("log %s: %w", t, err))
		}
		if ok {
			return p
		}
	}
	s.writeMu.Lock() // one writer at a time: no SQLite busy-handler sleeps
	err := s.actions.LogSession(ctx, id, t, data)
	s.writeMu.Unlock()
	if err != nil {
		return donePending(fmt.Errorf("log %s: %w", t, err))
	}
	return donePending(nil)
}

// Flush returns once every action logged before it is stored.
func (s *Service) Flush(ctx context.Context) {
	if s.queue != nil {
		s.queue.flush(ctx)
	}
}

// Close stores the queued actions (their callers' Waits return) and stops
// the background writer; Log writes synchronously afterwards. Close is
// idempotent.
func (s *Service) Close(ctx context.Context) error {
	if s.queue == nil {
		return nil
	}
	return s.queue.close(ctx)
}
