package session

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
)

// collect takes what is already queued, without waiting for more, and
// stops at the closed queue (reporting it) or maxBatch.
func TestCollect(t *testing.T) {
	item := queued{sessionID: "s", t: coach.ActionTabSwitch}
	barrier := queued{p: &Pending{done: make(chan struct{})}}
	for _, tc := range []struct {
		name   string
		queued []queued
		close  bool
		want   int // batch length, the first item included
	}{
		{"empty queue: the first item alone", nil, false, 1},
		{"takes everything queued", []queued{item, barrier, item}, false, 4},
		{"closed queue ends it", []queued{item}, true, 2},
		{"maxBatch ends it", make([]queued, maxBatch+5), false, maxBatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := &actionQueue{in: make(chan queued, maxBatch+10)}
			for _, it := range tc.queued {
				q.in <- it
			}
			if tc.close {
				close(q.in)
			}
			b, closed := q.collect([]queued{item})
			if len(b) != tc.want || closed != tc.close {
				t.Errorf("got %d items, closed %v; want %d, %v", len(b), closed, tc.want, tc.close)
			}
		})
	}
}

// gatedStore holds every commit until the gate opens and records when the
// last one finished.
type gatedStore struct {
	st        *store.Store
	gate      chan struct{}
	committed atomic.Bool
}

func (g *gatedStore) Update(ctx context.Context, f func(tx *store.Tx) error) error {
	<-g.gate
	err := g.st.Update(ctx, f)
	g.committed.Store(err == nil)
	return err
}

// Log returns only once the transaction holding its row committed: with
// the commit held back, Log does not return; once it is let through, the
// row is there without a Flush.
func TestLogReturnsAfterCommit(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	s, _ := f.svc.Start(ctx, StartInput{})
	f.svc.Close(ctx) // replace the writer by one over the gated store
	g := &gatedStore{st: f.st, gate: make(chan struct{})}
	f.svc.queue = newActionQueue(g, f.svc.queue.bus, f.svc.actions, f.svc.log)
	t.Cleanup(func() { f.svc.queue.close(ctx) })

	returned := make(chan bool, 1)
	go func() {
		err := f.svc.Log(ctx, coach.ActionFileSave, map[string]any{"path": "a.ts"})
		returned <- err == nil && g.committed.Load()
	}()
	select {
	case ok := <-returned:
		t.Fatalf("Log returned (ok=%v) while its commit was held back", ok)
	case <-time.After(100 * time.Millisecond): // a negative check: it must not return
	}
	close(g.gate)
	select {
	case ok := <-returned:
		if !ok {
			t.Fatal("Log returned before its row was committed, or with an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Log did not return after the commit")
	}
	list, err := f.st.RecentActions(ctx, store.ActionQuery{SessionID: s.ID, Types: []coach.ActionType{coach.ActionFileSave}})
	if err != nil || len(list) != 1 {
		t.Fatalf("got %d file_save rows (%v), want 1", len(list), err)
	}
}

// Concurrent callers are committed together: while the writer commits one
// batch the others queue up for the next, and every caller's Wait returns
// after its own row is stored.
func TestGroupCommitConcurrent(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	s, _ := f.svc.Start(ctx, StartInput{})
	var commits atomic.Int64
	counting := &countingStore{st: f.st, n: &commits}
	f.svc.Close(ctx)
	f.svc.queue = newActionQueue(counting, f.svc.queue.bus, f.svc.actions, f.svc.log)
	t.Cleanup(func() { f.svc.queue.close(ctx) })

	const callers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, callers*each)
	for c := range callers {
		wg.Go(func() {
			for i := range each {
				if err := f.svc.Log(ctx, coach.ActionMCPToolCall, map[string]int{"c": c, "i": i}); err != nil {
					errs <- err
					return
				}
				// Acknowledged: the row must be readable now.
				n, err := f.st.CountActions(ctx, s.ID, coach.ActionMCPToolCall, time.Time{})
				if err != nil || n < i+1 {
					errs <- errors.New("row not stored when Log returned")
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	n, _ := f.st.CountActions(ctx, s.ID, coach.ActionMCPToolCall, time.Time{})
	if n != callers*each {
		t.Fatalf("stored %d, want %d", n, callers*each)
	}
	t.Logf("%d actions in %d commits", n, commits.Load())
}

type countingStore struct {
	st *store.Store
	n  *atomic.Int64
}

func (c *countingStore) Update(ctx context.Context, f func(tx *store.Tx) error) error {
	c.n.Add(1)
	return c.st.Update(ctx, f)
}

// A batch that fails is retried row by row: each caller gets its own
// row's result, the bad one its error, the good ones nil.
func TestPendingErrors(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	good, _ := f.st.CreateSession(ctx, store.NewSession{ProjectDir: f.project})
	ps := []*Pending{{done: make(chan struct{})}, {done: make(chan struct{})}, {done: make(chan struct{})}}
	f.svc.queue.write([]queued{
		{sessionID: good.ID, t: coach.ActionIdleStart, p: ps[0]},
		{sessionID: "no-such-session", t: coach.ActionIdleEnd, p: ps[1]},
		{sessionID: good.ID, t: coach.ActionIdleEnd, p: ps[2]},
	})
	for i, want := range []bool{false, true, false} {
		if err := ps[i].Wait(ctx); (err != nil) != want {
			t.Errorf("action %d: Wait = %v, want error %v", i, err, want)
		}
	}
	if !errors.Is(ps[1].Wait(ctx), store.ErrNotFound) {
		t.Errorf("bad row: %v, want ErrNotFound", ps[1].Wait(ctx))
	}
}

// Close commits what is queued and finishes every Pending; nothing is lost.
func TestCloseFinishesPending(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	s, _ := f.svc.Start(ctx, StartInput{})
	var ps []*Pending
	for range 100 {
		ps = append(ps, f.svc.Submit(ctx, coach.ActionSelection, nil))
	}
	if err := f.svc.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		select {
		case <-p.done:
		default:
			t.Fatalf("pending %d not finished after Close", i)
		}
		if err := p.Wait(ctx); err != nil {
			t.Fatalf("pending %d: %v", i, err)
		}
	}
	want := []coach.ActionType{coach.ActionSessionStarted}
	for range 100 {
		want = append(want, coach.ActionSelection)
	}
	if diff := cmp.Diff(want, f.actions(t, s.ID)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Wait on a nil Pending (no active session, EC-17) returns nil; a cancelled
// context ends the wait with its error.
func TestPendingWait(t *testing.T) {
	var none *Pending
	if err := none.Wait(context.Background()); err != nil {
		t.Errorf("nil Pending: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := &Pending{done: make(chan struct{})}
	if err := p.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled wait: %v", err)
	}
	if err := donePending(errors.New("x")).Wait(ctx); err == nil || err.Error() != "x" {
		t.Errorf("done pending: %v", err)
	}
}

// Commits follow demand: an action queued without anybody waiting stays
// queued (it has not been acknowledged), and is committed, with whatever
// queued meanwhile, in one transaction once a caller waits.
func TestCommitOnDemand(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	s, _ := f.svc.Start(ctx, StartInput{})
	var commits atomic.Int64
	f.svc.Close(ctx)
	f.svc.queue = newActionQueue(&countingStore{st: f.st, n: &commits}, f.svc.queue.bus, f.svc.actions, f.svc.log)
	t.Cleanup(func() { f.svc.queue.close(ctx) })

	first := f.svc.Submit(ctx, coach.ActionMCPToolCall, map[string]int{"i": 0})
	second := f.svc.Submit(ctx, coach.ActionMCPToolCall, map[string]int{"i": 1})
	if n := commits.Load(); n != 0 {
		t.Fatalf("%d commits before anybody waited, want 0", n)
	}
	if err := second.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if n := commits.Load(); n != 1 {
		t.Errorf("%d commits for two actions queued together, want 1", n)
	}
	if n, _ := f.st.CountActions(ctx, s.ID, coach.ActionMCPToolCall, time.Time{}); n != 2 {
		t.Errorf("stored %d, want 2", n)
	}
}
