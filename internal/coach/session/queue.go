package session

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

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

// queued is one action waiting to be written, or a flush barrier (done set).
type queued struct {
	sessionID string
	t         coach.ActionType
	data      any
	done      chan struct{}
}

// actionQueue writes actions in the order they were queued from one
// goroutine, every action that queued up meanwhile in the same transaction.
// One writer means no two action writes wait on SQLite's busy handler, and
// batching turns thousands of tool calls per second into a few commits.
type actionQueue struct {
	store   BatchStore
	bus     Publisher
	single  ActionLogger // fallback, row by row, when a batch fails
	log     *slog.Logger
	in      chan queued
	stopped chan struct{}

	mu     sync.RWMutex // held for reading while sending on in
	closed bool         // guarded by mu; in is closed
}

func newActionQueue(st BatchStore, bus Publisher, single ActionLogger, log *slog.Logger) *actionQueue {
	q := &actionQueue{store: st, bus: bus, single: single, log: log,
		in: make(chan queued, queueSize), stopped: make(chan struct{})}
	go q.run()
	return q
}

func (q *actionQueue) run() {
	defer close(q.stopped)
	linger := time.NewTimer(time.Hour)
	defer linger.Stop()
	for first := range q.in {
		batch := []queued{first}
		if first.done == nil {
			linger.Reset(groupCommitDelay)
			batch = q.collect(batch, linger.C)
		}
		q.write(batch)
	}
}

// groupCommitDelay is how long the writer waits for more actions after the
// first of a batch. Under load (one mcp_tool_call per tool call) it turns
// a commit per action into one per batch; alone, an action is stored at
// most this much later. Flush does not wait for it.
const groupCommitDelay = time.Millisecond

// collect appends to batch what is queued until maxBatch actions, a flush
// barrier, the closed queue or a tick of wait.
func (q *actionQueue) collect(batch []queued, wait <-chan time.Time) []queued {
	for len(batch) < maxBatch {
		select {
		case it, ok := <-q.in:
			if !ok {
				return batch
			}
			batch = append(batch, it)
			if it.done != nil {
				return batch
			}
		case <-wait:
			return batch
		}
	}
	return batch
}

// write stores the actions of batch in one transaction and publishes them;
// if the transaction fails (say one row refers to a deleted session) the
// rows are retried one by one so the others are kept.
func (q *actionQueue) write(batch []queued) {
	ctx := context.Background()
	var rows []coach.Action
	err := q.store.Update(ctx, func(tx *store.Tx) error {
		rows = rows[:0]
		for _, it := range batch {
			if it.done != nil {
				continue
			}
			raw, err := marshal(it.data)
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
			q.bus.Publish(actionlog.Event{Type: a.Type, SessionID: a.SessionID, Data: a.Data, At: a.CreatedAt, ActionID: a.ID})
		}
	}
	for _, it := range batch {
		switch {
		case it.done != nil:
			close(it.done)
		case err != nil:
			if err := q.single.LogSession(ctx, it.sessionID, it.t, it.data); err != nil {
				q.log.Error("cannot log action", "action", string(it.t), "session", it.sessionID, "err", err)
			}
		}
	}
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
		return true, nil
	case <-ctx.Done():
		return true, ctx.Err()
	}
}

// flush returns once everything queued before it is written.
func (q *actionQueue) flush(ctx context.Context) {
	done := make(chan struct{})
	if ok, err := q.enqueue(ctx, queued{done: done}); !ok || err != nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// close writes what is queued and stops the writer. It is idempotent.
func (q *actionQueue) close(ctx context.Context) error {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.in)
	}
	q.mu.Unlock()
	select {
	case <-q.stopped:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("action queue not drained: %w", ctx.Err())
	}
}

func marshal(data any) (json.RawMessage, error) {
	switch d := data.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return d, nil
	}
	return json.Marshal(data)
}
