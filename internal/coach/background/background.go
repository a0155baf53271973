// Package background runs a service's work off the caller's goroutine and
// stops it at shutdown, without the WaitGroup misuse of calling Add after
// (or while) Wait runs: a [Group] refuses new goroutines once Close has
// begun and runs their work at once with a cancelled context instead, so
// every request is still answered and nothing outlives Close.
//
// The WebSocket adapter runs the model calls of Explain This and Practice
// Review in one (wsapi.Background is this type); the dashboard runs its
// issue and materials flows in another.
package background

import (
	"context"
	"sync"
)

// Group runs functions in goroutines until it is closed. It is safe for
// concurrent use. The zero value is not usable; use [New].
type Group struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex // guards closed and wg.Add
	closed bool
	wg     sync.WaitGroup
}

// New returns a running Group.
func New() *Group {
	ctx, cancel := context.WithCancel(context.Background())
	return &Group{ctx: ctx, cancel: cancel}
}

// Go runs f in a goroutine with a context that ends when Close is called or
// when parent ends (for a model call, the requesting connection closed:
// nobody waits for the answer). After Close has begun, f runs at once in
// the caller's goroutine with a cancelled context, so the request is still
// answered.
func (g *Group) Go(parent context.Context, f func(ctx context.Context)) {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		f(g.ctx)
		return
	}
	g.wg.Add(1)
	g.mu.Unlock()
	ctx, cancel := context.WithCancel(g.ctx)
	stop := context.AfterFunc(parent, cancel)
	go func() {
		defer g.wg.Done()
		defer cancel()
		defer stop()
		f(ctx)
	}()
}

// Close cancels the running functions and waits for them, or for ctx to
// end (then it returns ctx's error). It may be called more than once.
func (g *Group) Close(ctx context.Context) error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.cancel()
	done := make(chan struct{})
	go func() { g.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
