// Package actionlog records the coaching timeline (spec story 4): every
// significant user action and system event in action_log, every Claude call
// in api_call_log (the Logger is an llm.CallLogger), periodic and significant-change buffer summaries, and an
// in-process event bus the Observer subscribes to.
//
// # Design
//
// A [Logger] knows the one active coaching session (D27). Actions are
// written for it; with no active session an action is discarded with a
// warning and nothing is written (EC-17), except dashboard_loaded, written
// with no session (issue 13). Logging session_started or
// session_resumed through [Logger.LogSession] makes that session the active
// one and starts its buffer-summary ticker; logging session_ended or
// session_end flushes pending summaries, stops the ticker and clears the
// session (scenario 4.8). [Logger.Close] does the same at shutdown (EC-18).
//
// Buffer updates are not logged one by one (D23). [Logger.ObserveBuffer]
// keeps per-file counters in memory; every SummaryInterval (30 s) each file
// edited since the last summary gets a buffer_summary row, and an update that
// moves the character count by more than 500 characters or 50 % from the last
// logged count gets an immediate buffer_significant_change row (see
// [Significant] and the first-update baseline rule at [baseline]).
//
// Every written action, and every buffer update, is published on the [Bus]
// after it happened. Publishing never blocks the logger.
package actionlog

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paige-dev/paige/internal/coach"
)

// Store is what the Logger needs from the coaching database;
// *store.Store implements it.
type Store interface {
	InsertAction(ctx context.Context, sessionID string, t coach.ActionType, data json.RawMessage) (coach.Action, error)
	InsertAPICall(ctx context.Context, c coach.APICall) error
}

// Ticker is the part of *time.Ticker the summary loop uses; tests inject a
// manual one through [Options.NewTicker].
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// DefaultSummaryInterval is how often buffer summaries are flushed (FR-043).
const DefaultSummaryInterval = 30 * time.Second

// Options configures [New]. A nil *Options means defaults.
type Options struct {
	// Logger receives warnings (EC-17) and flush errors. If nil, discarded.
	Logger *slog.Logger
	// Bus receives events. If nil, the Logger creates one (see [Logger.Bus]).
	Bus *Bus
	// SummaryInterval is the buffer summary period. If zero, DefaultSummaryInterval.
	SummaryInterval time.Duration
	// NewTicker creates the summary ticker. If nil, a time.Ticker.
	NewTicker func(time.Duration) Ticker
	// Now stamps buffer update events. If nil, time.Now.
	Now func() time.Time
}

// Logger writes the action log of the active session. It is safe for
// concurrent use. Create it with [New]; call Close at shutdown.
type Logger struct {
	store     Store
	bus       *Bus
	log       *slog.Logger
	interval  time.Duration
	newTicker func(time.Duration) Ticker
	now       func() time.Time

	life sync.Mutex // serialises StartSession / EndSession

	mu      sync.Mutex // guards the fields below
	session string
	files   map[string]*fileState
	stop    chan struct{} // closes the running summary loop
	done    chan struct{} // closed when that loop has exited
	warned  atomic.Bool   // a no-session buffer update was warned about
}

// New returns a Logger writing to st.
func New(st Store, opts *Options) *Logger {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Bus == nil {
		o.Bus = &Bus{}
	}
	if o.SummaryInterval <= 0 {
		o.SummaryInterval = DefaultSummaryInterval
	}
	if o.NewTicker == nil {
		o.NewTicker = func(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Logger{store: st, bus: o.Bus, log: o.Logger, interval: o.SummaryInterval, newTicker: o.NewTicker,
		now: o.Now, files: make(map[string]*fileState)}
}

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }

// Bus returns the event bus the Logger publishes on.
func (l *Logger) Bus() *Bus { return l.bus }

// Session returns the active session id, "" when none.
func (l *Logger) Session() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.session
}

// StartSession makes id the active session and starts its summary ticker.
// Starting the already active session is a no-op; starting another one
// first ends the current one (flushing its summaries). Use it at startup to
// restore a session that is still active in the database; session handlers
// normally just log session_started / session_resumed with LogSession.
func (l *Logger) StartSession(ctx context.Context, id string) {
	l.life.Lock()
	defer l.life.Unlock()
	if id == "" || l.Session() == id {
		return
	}
	l.endSession(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.session = id
	l.files = make(map[string]*fileState)
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	l.warned.Store(false)
	go l.summaryLoop(l.newTicker(l.interval), l.stop, l.done)
}

// EndSession flushes the active session's pending buffer summaries, stops
// its ticker and clears the active session (FR-047). It waits for the
// ticker goroutine to exit. With no active session it does nothing.
func (l *Logger) EndSession(ctx context.Context) {
	l.life.Lock()
	defer l.life.Unlock()
	l.endSession(ctx)
}

func (l *Logger) endSession(ctx context.Context) {
	l.mu.Lock()
	id, stop, done := l.session, l.stop, l.done
	pending := drain(l.files)
	l.session, l.stop, l.done = "", nil, nil
	l.files = make(map[string]*fileState)
	l.mu.Unlock()
	if id == "" {
		return
	}
	close(stop)
	<-done
	l.writeSummaries(ctx, id, pending)
}

// Close ends the active session's bookkeeping (flushing summaries, stopping
// the ticker; EC-18). The session row itself is not touched. Close is
// idempotent and the Logger stays usable for API call records.
func (l *Logger) Close(ctx context.Context) error {
	l.EndSession(ctx)
	return nil
}

func (l *Logger) summaryLoop(t Ticker, stop, done chan struct{}) {
	defer close(done)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C():
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			l.FlushSummaries(ctx)
			cancel()
		}
	}
}

// FlushSummaries writes a buffer_summary for each file edited since its
// last summary in the active session — what the ticker does every
// SummaryInterval. Nothing is written when no file was edited (scenario 4.7).
func (l *Logger) FlushSummaries(ctx context.Context) {
	l.mu.Lock()
	id := l.session
	pending := drain(l.files)
	l.mu.Unlock()
	if id != "" {
		l.writeSummaries(ctx, id, pending)
	}
}

func (l *Logger) writeSummaries(ctx context.Context, id string, pending []summary) {
	for _, s := range pending {
		if err := l.write(ctx, id, coach.ActionBufferSummary, s); err != nil {
			l.log.Error("buffer summary not logged", "session", id, "path", s.Path, "err", err)
		}
	}
}

// Log writes an action for the active session (FR-041) and publishes it.
// data is marshalled to JSON (a json.RawMessage is used as is; nil means
// no data). With no active session the action is discarded with a warning
// and Log returns nil (EC-17), unless t may be logged outside a session
// (coach.ActionType's Sessionless): it is then written with no session.
// session_ended and session_end end the session's bookkeeping first (see
// [Logger.EndSession]).
func (l *Logger) Log(ctx context.Context, t coach.ActionType, data any) error {
	id := l.Session()
	if id == "" && !t.Sessionless() {
		l.log.Warn("action discarded: no active session", "action", string(t))
		return nil
	}
	return l.LogSession(ctx, id, t, data)
}

// LogSession writes an action for an explicit session and publishes it.
// Logging session_started or session_resumed makes sessionID the active
// session (starting its summary ticker); logging session_ended or
// session_end for the active session flushes its summaries and clears it
// before the row is written. An empty sessionID is EC-17: warning, nothing
// written, nil returned; except for a Sessionless type, written with no
// session (its event has an empty SessionID).
func (l *Logger) LogSession(ctx context.Context, sessionID string, t coach.ActionType, data any) error {
	if sessionID == "" && !t.Sessionless() {
		l.log.Warn("action discarded: no active session", "action", string(t))
		return nil
	}
	switch t {
	case coach.ActionSessionStarted, coach.ActionSessionResumed:
		l.StartSession(ctx, sessionID)
	case coach.ActionSessionEnded, coach.ActionSessionEnd:
		if l.Session() == sessionID {
			l.EndSession(ctx)
		}
	}
	return l.write(ctx, sessionID, t, data)
}

func (l *Logger) write(ctx context.Context, sessionID string, t coach.ActionType, data any) error {
	raw, err := MarshalData(data)
	if err != nil {
		return fmt.Errorf("log %s: %w", t, err)
	}
	a, err := l.store.InsertAction(ctx, sessionID, t, raw)
	if err != nil {
		return fmt.Errorf("log %s: %w", t, err)
	}
	l.bus.Publish(EventOf(a))
	return nil
}

// EventOf is the bus event of a stored action row.
func EventOf(a coach.Action) Event {
	return Event{Type: a.Type, SessionID: a.SessionID, Data: a.Data, At: a.CreatedAt, ActionID: a.ID}
}

// MarshalData encodes an action's data as it is stored: nil stays nil (no
// data), a json.RawMessage is kept as it is, anything else is JSON.
func MarshalData(data any) (json.RawMessage, error) {
	switch d := data.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return d, nil
	}
	return json.Marshal(data)
}

// RecordAPICall writes one api_call_log row (FR-042, scenario 4.4). Calls
// outside a session are kept with a NULL session; failed calls carry
// LatencyMs -1 (EC-19). [Logger.LogAPICall] is the same for an
// llm.CallRecord.
func (l *Logger) RecordAPICall(ctx context.Context, c coach.APICall) error {
	if err := l.store.InsertAPICall(ctx, c); err != nil {
		return fmt.Errorf("log api call: %w", err)
	}
	return nil
}
