package observer

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// fakeClock is a manual Clock: time moves only with Advance, and the idle
// ticker fires only with Tick.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	tickers []*fakeTicker
}

type fakeTicker struct {
	c       chan time.Time
	stopped chan struct{}
	once    sync.Once
}

func (t *fakeTicker) C() <-chan time.Time { return t.c }
func (t *fakeTicker) Stop()               { t.once.Do(func() { close(t.stopped) }) }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTicker(time.Duration) Ticker {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTicker{c: make(chan time.Time), stopped: make(chan struct{})}
	c.tickers = append(c.tickers, t)
	return t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// lastTicker returns the newest ticker.
func (c *fakeClock) lastTicker() *fakeTicker {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tickers[len(c.tickers)-1]
}

// The names of the Observer's WebSocket messages, which label what the
// recorder receives.
const (
	typeObserverStatus = "observer:status"
	typeObserverNudge  = "observer:nudge"
)

// recorder is a Notifier that keeps every notice as the message it
// becomes, its payload decoded from JSON.
type recorder struct {
	mu   sync.Mutex
	msgs []message
}

type message struct {
	Type    string
	Payload map[string]any
}

func (r *recorder) Status(s Status) { r.record(typeObserverStatus, s) }
func (r *recorder) Nudge(n Nudge)   { r.record(typeObserverNudge, n) }

func (r *recorder) record(typ string, payload any) {
	b, _ := json.Marshal(payload)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	r.mu.Lock()
	r.msgs = append(r.msgs, message{typ, m})
	r.mu.Unlock()
}

func (r *recorder) all() []message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]message(nil), r.msgs...)
}

func (r *recorder) ofType(typ string) []message {
	var out []message
	for _, m := range r.all() {
		if m.Type == typ {
			out = append(out, m)
		}
	}
	return out
}

type harness struct {
	m        *Manager
	st       *store.Store
	al       *actionlog.Logger
	bus      *actionlog.Bus
	llm      *llmtest.Server
	hub      *recorder
	clock    *fakeClock
	sid      string
	events   chan actionlog.Event
	finished chan struct{}
}

// testLog logs through t, from debug level up.
func testLog(t testing.TB) *slog.Logger { return testenv.Logger(t, slog.LevelDebug) }

// newHarness opens a store, an action log, a fake Claude and a Manager
// observing a fresh session.
func newHarness(t testing.TB) *harness {
	t.Helper()
	ctx := context.Background()
	clock := &fakeClock{now: time.Date(2026, 2, 11, 12, 0, 0, 0, time.UTC)}
	st, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.Now = clock.Now
	bus := &actionlog.Bus{}
	al := actionlog.New(st, &actionlog.Options{Bus: bus, Now: clock.Now})
	t.Cleanup(func() { al.Close(ctx) })
	fake := llmtest.NewServer(t)
	client := llm.New(llm.Options{APIKey: "test", BaseURL: fake.URL(), Log: al, Now: clock.Now,
		Retry: llm.RetryPolicy{BaseDelay: time.Millisecond}})
	sess, err := st.CreateSession(ctx, store.NewSession{ProjectDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{st: st, al: al, bus: bus, llm: fake, hub: &recorder{}, clock: clock, sid: sess.ID,
		events: make(chan actionlog.Event, 1024), finished: make(chan struct{}, 64)}
	h.m = New(Options{Store: st, Actions: al, Bus: bus, LLM: client, Notifier: h.hub, Clock: clock, Log: testLog(t)})
	h.m.onEvent = func(e actionlog.Event) {
		if e.Type == "barrier" {
			h.events <- e
		}
	}
	h.m.onFinish = func() { h.finished <- struct{}{} }
	t.Cleanup(func() { h.m.Close() })
	h.m.Start(sess.ID)
	return h
}

// sync waits until the Observer has handled every event published so far.
func (h *harness) sync(t testing.TB) {
	t.Helper()
	h.bus.Publish(actionlog.Event{Type: "barrier", SessionID: h.sid})
	select {
	case <-h.events:
	case <-time.After(5 * time.Second):
		t.Fatal("observer did not handle the barrier event")
	}
}

// act logs an action for the session (it reaches SQLite and the bus) and
// waits until the Observer has handled it.
func (h *harness) act(t testing.TB, typ coach.ActionType, data any) {
	t.Helper()
	if err := h.al.LogSession(context.Background(), h.sid, typ, data); err != nil {
		t.Fatal(err)
	}
	h.sync(t)
}

// edit publishes a buffer update and waits until it is handled.
func (h *harness) edit(t testing.TB) {
	t.Helper()
	h.bus.Publish(actionlog.Event{Type: actionlog.EventBufferUpdate, SessionID: h.sid, Path: "a.ts"})
	h.sync(t)
}

// evaluate scripts the triage reply, logs a typ action on path and waits
// for the evaluation it triggers to end.
func (h *harness) evaluate(t testing.TB, reply llmtest.Response, typ coach.ActionType, path string) {
	t.Helper()
	h.llm.Enqueue(reply)
	h.act(t, typ, map[string]any{"path": path})
	h.waitEval(t)
}

// holdTriage makes the fake Claude answer each triage with reply, but
// only after release is called: an evaluation stays in flight until then.
func (h *harness) holdTriage(reply llmtest.Response) (release func()) {
	ch := make(chan struct{})
	h.llm.Handle(func(llmtest.Request) llmtest.Response {
		<-ch
		return reply
	})
	return func() { close(ch) }
}

// waitEval waits for one evaluation to end.
func (h *harness) waitEval(t testing.TB) {
	t.Helper()
	select {
	case <-h.finished:
	case <-time.After(10 * time.Second):
		t.Fatal("evaluation did not finish")
	}
}

// noEval asserts that no evaluation started: nothing reached the fake
// Claude. Call it after sync.
func (h *harness) noEval(t testing.TB, wantRequests int) {
	t.Helper()
	if got := len(h.llm.Requests()); got != wantRequests {
		t.Fatalf("triage calls: got %d, want %d", got, wantRequests)
	}
}

// actions returns the session's logged actions of the given types.
func (h *harness) actions(t testing.TB, types ...coach.ActionType) []coach.Action {
	t.Helper()
	list, err := h.st.RecentActions(context.Background(), store.ActionQuery{SessionID: h.sid, Types: types, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func data(t testing.TB, a coach.Action) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.Data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// triage is a scripted triage reply.
func triage(should bool, conf float64, signal string) llmtest.Response {
	cur, exp := "src/middleware/auth.ts", "src/handlers/oauth.ts"
	return llmtest.JSON(map[string]any{
		"should_nudge": should, "confidence": conf, "signal": signal, "reasoning": "test",
		"suggested_context": map[string]any{"current_file": cur, "expected_file": exp, "time_in_file": "3m12s",
			"phase_description": nil},
	}).WithUsage(300, 40)
}
