// Package server owns the process lifecycle of Paige's single HTTP server:
// listening, serving, and an orderly shutdown that closes everything the
// capabilities registered, in reverse order of registration, logging each step.
//
// It knows nothing about the routes it serves: the wiring hands it one
// [http.Handler]. It does own the one origin/host [Policy] every route is
// behind: [Serve] always wraps the handler with [Policy.Guard] (and
// [BodyDeadline]), so no route can be mounted outside it.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"
)

// DefaultShutdownTimeout bounds how long in-flight requests may drain.
const DefaultShutdownTimeout = 5 * time.Second

// ErrShuttingDown is the cause (context.Cause) of every request context
// cancelled because the server is shutting down, so a long-lived stream can
// tell a shutdown from a client that went away and send a final event.
var ErrShuttingDown = errors.New("server: shutting down")

// Closer is one named shutdown step.
type Closer struct {
	Name  string
	Close func(context.Context) error
}

// Options configure [Serve]. A zero Options is valid.
type Options struct {
	Logger          *slog.Logger  // nil means discard
	ShutdownTimeout time.Duration // if zero, DefaultShutdownTimeout
	// Ready, if non-nil, is called with the bound address once the server
	// accepts connections.
	Ready func(addr net.Addr)
	// Closers run after the HTTP server stopped, last registered first.
	Closers []Closer
	// OnShutdown run when shutdown begins, before draining (e.g. to close
	// hijacked WebSocket connections and long-lived streams).
	OnShutdown []func()
	// Policy guards every route but GET /health; nil means the zero
	// Policy (loopback hosts, same-origin browsers only).
	Policy *Policy
	// BodyReadTimeout bounds the reading of request bodies ([BodyDeadline]);
	// if zero, DefaultBodyReadTimeout.
	BodyReadTimeout time.Duration
}

// Serve listens on addr and serves h, behind the policy and the body
// deadline, until ctx is cancelled, then shuts down gracefully and runs the
// closers. It returns nil after a clean shutdown and
// the listen error (with a clear message for a port in use) otherwise. The
// closers run in every case, so resources opened before Serve are released.
func Serve(ctx context.Context, addr string, h http.Handler, opts *Options) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.ShutdownTimeout == 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	defer RunClosers(ctx, log, o.Closers, o.ShutdownTimeout)

	ln, err := Listen(addr)
	if err != nil {
		return err
	}
	base, cancelBase := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancelBase(ErrShuttingDown)
	policy := o.Policy
	if policy == nil {
		policy = &Policy{}
	}
	srv := &http.Server{
		// The deadline is outermost: it also bounds draining the body of a
		// request the policy refused.
		Handler:           BodyDeadline(policy.Guard(h, log), o.BodyReadTimeout),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	for _, f := range o.OnShutdown {
		srv.RegisterOnShutdown(f)
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	if o.Ready != nil {
		o.Ready(ln.Addr())
	}

	select {
	case err := <-serveErr:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "step", "http server")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.ShutdownTimeout)
	defer cancel()
	// Long-lived streams (SSE, WebSocket) watch the base context.
	cancelBase(ErrShuttingDown)
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("http server did not drain in time; closing", "err", err)
		srv.Close()
	}
	log.Info("http server stopped")
	return nil
}

// Listen binds addr and turns "address already in use" into a clear message (EC-01).
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("cannot listen on %s: the port is already in use (is another Paige running? set PORT to choose another)", addr)
		}
		return nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return ln, nil
}

// closerGrace is how long a closer may take after its deadline to return.
const closerGrace = time.Second

// RunClosers runs closers last first, each bounded by timeout, logging each
// step. A closer that does not return within timeout (plus a short grace)
// is abandoned and logged as failed, so shutdown always ends.
func RunClosers(ctx context.Context, log *slog.Logger, closers []Closer, timeout time.Duration) {
	for i := len(closers) - 1; i >= 0; i-- {
		c := closers[i]
		if err := runCloser(ctx, c, timeout); err != nil {
			log.Warn("shutdown step failed", "step", c.Name, "err", err)
		} else {
			log.Info("shutdown step done", "step", c.Name)
		}
	}
}

func runCloser(ctx context.Context, c Closer, timeout time.Duration) error {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Close(cctx) }()
	select {
	case err := <-done:
		return err
	case <-cctx.Done():
	}
	select {
	case err := <-done:
		return err
	case <-time.After(closerGrace):
		return fmt.Errorf("did not finish within %v; abandoned", timeout)
	}
}
