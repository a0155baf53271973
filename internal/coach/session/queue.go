package session

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"sync"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/store"
)

// BatchStore runs one write transaction; *store.Store satisfies it.
type BatchStore interface {
	Update(ctx context.Context, f func(tx *store.Tx) error) error
}

// Publisher receives every written action; *actionlog.Bus satisfies it.
type Publisher interface {
	Publish(e actionlog.Event)
}

// maxBatch bounds the actions written in one transaction.
const maxBatch = 512

// queueSize is the number of actions waiting before Log blocks (back
// pressure: actions are never dropped).
const queueSize = 8192

// Pending is an action handed to the writer by [Service.Submit]. It is
// done once the transaction holding its row committed (or failed).
type Pending struct {
	done chan struct{} // closed when err is set
	err  error
	q    *actionQueue // told when someone waits; nil when done from the start
}

// donePending is a Pending that finished with err before it was queued.
func donePending(err error) *Pending {
	p := &Pending{done: make(chan struct{}), err: err}
	close(p.done)
	return p
}

func (p *Pending) finish(err error) {
	p.err = err
	close(p.done)
}

// Wait returns once the action is committed to the database, with nil, or
// with the error that kept it from being stored. If ctx ends first it
// returns ctx's error; the action may still be stored. A nil *Pending (an
// action that was not to be logged, EC-17) returns nil at once.
func (p *Pending) Wait(ctx context.Context) error {
	if p == nil {
		return nil
	}
	select {
	case <-p.done:
		return p.err
	default:
	}
	if p.q != nil {
		p.q.want()
	}
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// queued is one action waiting to be written, or a flush barrier (t empty).
type queued struct {
	sessionID string
	t         coach.ActionType
	data      any
	p         *Pending
}

// actionQueue writes actions in the order they were queued from one
// goroutine (group commit): when a caller waits for a queued action, it
// takes everything queued, commits it in one transaction, then wakes the
// callers waiting for those actions. While it commits, new actions queue
// up for the next transaction, so batches grow with the load by themselves
// and a lone action is written as soon as its caller waits, with no timer.
// Commits are driven by demand: an action queued before the work it stands
// for (an MCP tool call is queued before the tool runs and waited for
// before the answer) is committed together with whatever other callers
// queued meanwhile, and a full batch is written without waiting for a
// waiter. One writer also means no two action writes wait on SQLite's busy
// handler.
type actionQueue struct {
	store   BatchStore
	bus     Publisher
	single  ActionLogger // fallback, row by row, when a batch fails
	log     *slog.Logger
	in      chan queued
	demand  chan struct{} // capacity 1: a caller waits, a batch is full, or in is closed
	stopped chan struct{}

	mu     sync.RWMutex // held for reading while sending on in
	closed bool         // guarded by mu; in is closed
}

func newActionQueue(st BatchStore, bus Publisher, single ActionLogger, log *slog.Logger) *actionQueue {
	q := &actionQueue{store: st, bus: bus, single: single, log: log,
		in: make(chan queued, queueSize), demand: make(chan struct{}, 1), stopped: make(chan struct{})}
	go q.run()
	return q
}

// want asks the writer to commit what is queued; it never blocks.
func (q *actionQueue) want() {
	select {
	case q.demand <- struct{}{}:
	default: // already asked; the writer drains everything queued when it runs
	}
}

func (q *actionQueue) run() {
	defer close(q.stopped)
	batch := make([]queued, 0, maxBatch)
	for range q.demand {
		// Let the goroutines that are already runnable (callers about to
		// queue their actions) run first, so they join this batch: no
		// timer, and on an idle machine the yield returns at once. On 2
		// cores under MCP load it took batches from ~1.7 to ~7.7 rows.
		runtime.Gosched()
		for {
			var closed bool
			batch, closed = q.collect(batch[:0])
			if len(batch) > 0 {
				q.write(batch)
				clear(batch) // drop the references to written data
			}
			if closed {
				return
			}
			if len(batch) < maxBatch {
				break
			}
		}
	}
}

// collect appends to batch what is already queued, up to maxBatch
// actions; it never waits for more. closed reports that the queue is
// closed and empty.
func (q *actionQueue) collect(batch []queued) (_ []queued, closed bool) {
	for len(batch) < maxBatch {
		select {
		case it, ok := <-q.in:
			if !ok {
				return batch, true
			}
			batch = append(batch, it)
		default:
			return batch, false
		}
	}
	return batch, false
}

// write stores the actions of batch in one transaction, publishes them and
// then finishes their Pendings; if the transaction fails (say one row
// refers to a deleted session) the rows are retried one by one so the
// others are kept, and each Pending gets its own row's result.
func (q *actionQueue) write(batch []queued) {
	ctx := context.Background()
	var rows []coach.Action
	err := q.store.Update(ctx, func(tx *store.Tx) error {
		rows = rows[:0]
		for _, it := range batch {
			if it.t == "" {
				continue
			}
			raw, err := actionlog.MarshalData(it.data)
			if err != nil {
				return err
			}
			a, err := tx.InsertAction(ctx, it.sessionID, it.t, raw)
			if err != nil {
				return err
			}
			rows = append(rows, a)
		}
		return nil
	})
	if err == nil {
		for _, a := range rows {
			q.bus.Publish(actionlog.EventOf(a))
		}
	}
	for _, it := range batch {
		if err == nil || it.t == "" {
			it.p.finish(nil)
			continue
		}
		rowErr := q.single.LogSession(ctx, it.sessionID, it.t, it.data)
		if rowErr != nil {
			q.log.Error("cannot log action", "action", string(it.t), "session", it.sessionID, "err", rowErr)
		}
		it.p.finish(rowErr)
	}
}

// pending returns a Pending for an action of this queue.
func (q *actionQueue) pending() *Pending {
	return &Pending{done: make(chan struct{}), q: q}
}

// enqueue queues it; ok is false when the queue is closed (the caller then
// writes synchronously, so a straggler after shutdown loses nothing).
func (q *actionQueue) enqueue(ctx context.Context, it queued) (ok bool, err error) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return false, nil
	}
	select {
	case q.in <- it:
		if len(q.in) >= maxBatch {
			q.want() // a full batch is written even if nobody waits yet
		}
		return true, nil
	case <-ctx.Done():
		return true, ctx.Err()
	}
}

// flush returns once everything queued before it is written.
func (q *actionQueue) flush(ctx context.Context) {
	p := q.pending()
	if ok, err := q.enqueue(ctx, queued{p: p}); !ok || err != nil {
		return
	}
	_ = p.Wait(ctx)
}

// close writes what is queued, finishing its Pendings, and stops the
// writer. It is idempotent.
func (q *actionQueue) close(ctx context.Context) error {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.in)
	}
	q.mu.Unlock()
	q.want()
	select {
	case <-q.stopped:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("action queue not drained: %w", ctx.Err())
	}
}
