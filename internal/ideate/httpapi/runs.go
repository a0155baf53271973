package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"sync"
	"time"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/server/sse"
)

// liveRun is one agent run of a session: its encoded SSE frames so far, and
// whether it ended. Streams read frames by index and wait on notify.
type liveRun struct {
	cancel context.CancelFunc
	ctx    context.Context

	mu        sync.Mutex
	frames    [][]byte      // guarded by mu
	done      bool          // guarded by mu
	notify    chan struct{} // closed and replaced on every change; guarded by mu
	followers int           // streams following the run; guarded by mu
	abandon   *time.Timer   // cancels the run once nobody follows it; guarded by mu
}

// attach counts one more stream following the run and stops a pending
// abandonment (a reload came back in time).
func (r *liveRun) attach() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.followers++
	if r.abandon != nil {
		r.abandon.Stop()
		r.abandon = nil
	}
}

// detach counts one stream less. When the last one leaves a run that has
// not ended (the page was closed), the run's model call is cancelled after
// grace unless a stream attaches again. Its last turn is persisted, so
// streaming the session again continues it. A run nobody ever followed (one
// resumed at server start) is never abandoned this way.
func (r *liveRun) detach(grace time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.followers--
	if r.followers > 0 || r.done {
		return
	}
	r.abandon = time.AfterFunc(grace, func() {
		r.mu.Lock()
		gone := r.followers == 0 && !r.done
		r.mu.Unlock()
		if gone {
			r.cancel()
		}
	})
}

// emit encodes ev as one SSE frame and wakes the streams.
func (r *liveRun) emit(ev core.Event) {
	frame := encodeFrame(ev)
	r.mu.Lock()
	r.frames = append(r.frames, frame)
	close(r.notify)
	r.notify = make(chan struct{})
	r.mu.Unlock()
}

// encodeFrame renders ev as one SSE data frame (no event name: the type is
// in the JSON, as the spec has it).
func encodeFrame(ev core.Event) []byte {
	frame, err := sse.Encode("", ev)
	if err != nil {
		frame, _ = sse.Encode("", core.Internal().SSE())
	}
	return frame
}

func (r *liveRun) finish() {
	r.mu.Lock()
	if !r.done {
		r.done = true
		close(r.notify)
		r.notify = make(chan struct{})
	}
	r.mu.Unlock()
}

// wait waits until the run has ended, ctx ends or d passes; it reports
// whether the run ended.
func (r *liveRun) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		_, notify, done := r.since(math.MaxInt)
		if done {
			return true
		}
		select {
		case <-notify:
		case <-ctx.Done():
			return false
		case <-t.C:
			return false
		}
	}
}

// since returns the frames from index i on, a channel closed at the next
// change, and whether the run has ended.
func (r *liveRun) since(i int) ([][]byte, <-chan struct{}, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames[min(i, len(r.frames)):], r.notify, r.done
}

// runManager keeps the live run of each session.
type runManager struct {
	base       context.Context
	cancelBase context.CancelCauseFunc
	wg         sync.WaitGroup

	log *slog.Logger

	mu   sync.Mutex
	runs map[string]*liveRun // guarded by mu
}

func newRunManager(log *slog.Logger) *runManager {
	base, cancel := context.WithCancelCause(context.Background())
	return &runManager{base: base, cancelBase: cancel, log: log, runs: map[string]*liveRun{}}
}

// get returns the session's live run, or nil.
func (m *runManager) get(id string) *liveRun {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[id]
}

// reserve registers a new run for the session unless one exists; existing
// is returned otherwise (and ok is false). A reserved run must be started
// with launch or dropped with release.
func (m *runManager) reserve(id string) (run *liveRun, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.runs[id]; r != nil {
		return r, false
	}
	ctx, cancel := context.WithCancel(m.base)
	r := &liveRun{ctx: ctx, cancel: cancel, notify: make(chan struct{})}
	m.runs[id] = r
	return r, true
}

// release drops a reserved run that will not start.
func (m *runManager) release(id string, r *liveRun) {
	m.mu.Lock()
	if m.runs[id] == r {
		delete(m.runs, id)
	}
	m.mu.Unlock()
	r.cancel()
	r.finish()
}

// launch runs f for the reserved run in its own goroutine; the run ends
// (and leaves the manager) when f returns. A panic in f is logged and ends
// the run with an INTERNAL_ERROR event instead of the process.
func (m *runManager) launch(id string, r *liveRun, f func(ctx context.Context, emit func(core.Event))) {
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer m.release(id, r)
		defer func() {
			if p := recover(); p != nil {
				m.log.Error("ghostpath: run panicked", "session_id", id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				r.emit(core.Internal().WithSession(id).SSE())
				r.emit(core.Done(true, false))
			}
		}()
		f(r.ctx, r.emit)
	}()
}

// cancel stops the session's live run; it reports whether there was one.
func (m *runManager) cancel(id string) bool {
	if r := m.get(id); r != nil {
		r.cancel()
		return true
	}
	return false
}

// shutdownError is the cause runs are cancelled with when the server stops:
// the runner ends them with this error and done {error: true}, so every open
// stream gets a final event. Their last turn is persisted; streaming the
// session again resumes it.
func shutdownError() *core.Error {
	return core.NewError(core.CodeServerShutdown,
		"Paige is shutting down. This session is saved and continues when you open it again.")
}

// shutdown cancels every run with the shutdown cause; it is idempotent.
func (m *runManager) shutdown() { m.cancelBase(shutdownError()) }

// close cancels every run and waits for them until ctx ends.
func (m *runManager) close(ctx context.Context) error {
	m.shutdown()
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
