package observer

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
)

// Scenarios 10.11–10.13, SC-068: mute is logged and broadcast; a muted
// Observer skips triggers silently; unmuting re-enables it.
func TestMute(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	if err := h.m.SetMuted(ctx, true); err != nil {
		t.Fatal(err)
	}
	for range 12 {
		h.act(t, coach.ActionFileOpen, map[string]any{"path": "a.ts"})
	}
	h.noEval(t, 0)
	if err := h.m.SetMuted(ctx, false); err != nil {
		t.Fatal(err)
	}
	muted := h.actions(t, coach.ActionObserverMuted)
	if len(muted) != 2 || data(t, muted[0])["muted"] != true || data(t, muted[1])["muted"] != false {
		t.Fatalf("observer_muted rows: got %v", muted)
	}
	if n := len(h.actions(t, coach.ActionNudgeSuppressed)); n != 0 {
		t.Errorf("muted triggers logged %d suppressions", n)
	}
	st := h.hub.ofType(typeObserverStatus)
	want := []map[string]any{
		{"active": true, "muted": false, "lastEvaluation": nil},
		{"active": true, "muted": true, "lastEvaluation": nil},
		{"active": true, "muted": false, "lastEvaluation": nil},
	}
	var got []map[string]any
	for _, m := range st {
		got = append(got, m.Payload)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("observer:status (-want +got):\n%s", diff)
	}
	h.clock.Advance(61 * time.Second) // the muted burst still counted as activity
	h.evaluate(t, triage(false, 0, "no_nudge"), coach.ActionFileOpen, "a.ts")
	h.noEval(t, 1)
}

// Scenario 10.2, EC-66, EC-70, EC-71: stopping broadcasts inactive status,
// discards a result in flight, and leaves mute with nothing to change.
func TestStopDiscardsInFlight(t *testing.T) {
	h := newHarness(t)
	release := h.holdTriage(triage(true, 0.99, "wrong_file"))
	h.act(t, coach.ActionFileOpen, map[string]any{"path": "a.ts"})
	h.llm.WaitRequests(t, 1, 5*time.Second)
	tk := h.clock.lastTicker()
	h.m.OnSessionEvent(context.Background(), session.Event{Kind: session.Ended, Session: coach.Session{ID: h.sid}})
	select {
	case <-tk.stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("idle ticker not stopped")
	}
	release()
	h.waitEval(t)
	if n := len(h.actions(t, coach.ActionNudgeSent)); n != 0 {
		t.Errorf("result after session end logged %d nudges", n)
	}
	if n := len(h.hub.ofType(typeObserverNudge)); n != 0 {
		t.Errorf("result after session end broadcast %d nudges", n)
	}
	st := h.hub.ofType(typeObserverStatus)
	if last := st[len(st)-1].Payload; last["active"] != false || last["muted"] != false {
		t.Errorf("final status: got %v", last)
	}
	if err := h.m.SetMuted(context.Background(), true); !errors.Is(err, ErrNoObserver) {
		t.Errorf("SetMuted without session: got %v, want ErrNoObserver", err)
	}
	// The session's loop and its last evaluation are gone.
	deadline := time.Now().Add(2 * time.Second)
	for observerGoroutines() != "" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if stacks := observerGoroutines(); stacks != "" {
		t.Errorf("observer goroutines left after the session ended:\n%s", stacks)
	}
}

// FR-129/130 and the brief's leak check: Close stops every goroutine, and
// a session started again gets a fresh unmuted state.
func TestLifecycleNoLeak(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.m.SetMuted(ctx, true)
	other, err := h.st.CreateSession(ctx, store.NewSession{ProjectDir: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	h.m.OnSessionEvent(ctx, session.Event{Kind: session.Started, Session: other})
	if st := h.m.Status(); !st.Active || st.Muted {
		t.Errorf("new session status: got %+v, want active unmuted", st)
	}
	h.m.OnSessionEvent(ctx, session.Event{Kind: session.Resumed, Session: other}) // same session: no restart
	if n := len(h.hub.ofType(typeObserverStatus)); n != 4 {
		t.Errorf("status broadcasts: got %d, want 4 (start, mute, stop, start)", n)
	}
	h.m.Close()
	h.m.Start(other.ID) // after Close: nothing
	if h.m.Status().Active {
		t.Error("Start after Close started an observer")
	}
	if stacks := observerGoroutines(); stacks != "" {
		t.Errorf("observer goroutines left after Close:\n%s", stacks)
	}
	h.m.mu.Lock()
	cur := h.m.cur
	h.m.mu.Unlock()
	if cur != nil {
		t.Error("observer still running after Close")
	}
}

// observerGoroutines returns the stacks of goroutines running this
// package's loop or evaluations, "" when none.
func observerGoroutines() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "observer.(*run).loop") || strings.Contains(g, "observer.(*run).evaluate") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}

// Offline (no API key) a trigger reads nothing and calls nothing.
func TestOfflineSkipsTriage(t *testing.T) {
	h := newHarness(t)
	h.m.o.LLM = llm.New(llm.Options{BaseURL: h.llm.URL()}) // before the event: the bus orders it
	h.act(t, coach.ActionFileOpen, map[string]any{"path": "a.ts"})
	h.noEval(t, 0)
	h.m.mu.Lock()
	r := h.m.cur
	h.m.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st.Evaluating {
		t.Error("offline trigger left an evaluation in progress")
	}
}

// Buffer updates published back to back are all handled, in order: none
// is lost, and the counts are those of the updates handled one at a time.
func TestBufferUpdateBurstCounted(t *testing.T) {
	h := newHarness(t)
	if err := h.m.SetMuted(context.Background(), true); err != nil { // no evaluation resets the counter
		t.Fatal(err)
	}
	const n = 200 // within the subscription's buffer
	for range n {
		h.bus.Publish(actionlog.Event{Type: actionlog.EventBufferUpdate, SessionID: h.sid, Path: "a.ts"})
	}
	h.sync(t)
	r := h.m.cur
	r.mu.Lock()
	got, recent := r.st.BufferUpdates, len(r.st.Recent)
	r.mu.Unlock()
	if got != n || recent != flowKeep || r.sub.Dropped() != 0 {
		t.Errorf("after %d updates: counted %d, %d recent, %d dropped; want %d, %d, 0", n, got, recent, r.sub.Dropped(), n, flowKeep)
	}
}
