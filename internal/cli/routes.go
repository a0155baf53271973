package cli

import (
	"context"
	"net/http"

	"github.com/paige-dev/paige/internal/hook"
	"github.com/paige-dev/paige/internal/server"
)

// wire opens every capability's services and lists the whole HTTP surface.
// Each capability registers its shutdown steps on a. The mux is served
// behind the origin policy by server.Serve, which wraps it whole.
func wire(ctx context.Context, a *app, mux *routeMux) (err error) {
	dbs := a.openedDatabases(ctx)
	defer func() {
		if err != nil {
			dbs.closeUntaken()
		}
	}()
	mux.Handle("GET /health", server.HandleHealthWith(a.start, nil, map[string]any{"dataDirId": hook.DataDirID(a.cfg.DataDir)}))
	if err := openTerminal(a); err != nil {
		return err
	}
	if err := wireCoach(ctx, a, mux); err != nil {
		return err
	}
	mux.Handle("GET /api/v1/status", handleStatus(a.cfg, &a.status))
	if err := wireIdeate(ctx, a, mux); err != nil {
		return err
	}
	if err := wireGhostPathUI(ctx, a, mux); err != nil {
		return err
	}
	if err := wireLearn(ctx, a, mux); err != nil {
		return err
	}
	if err := wireMemory(ctx, a, mux); err != nil {
		return err
	}
	return wireWorkbench(ctx, a, mux)
}

// routeMux is the one mux `paige serve` serves: an [http.ServeMux] that
// records every pattern registered on it, so the HTTP surface can be
// enumerated (the origin-policy test requests every route wire
// registers, so a route added later is checked without anyone listing
// it). It is not safe for concurrent registration; wiring is sequential.
type routeMux struct {
	mux      *http.ServeMux
	patterns []string
}

func newRouteMux() *routeMux { return &routeMux{mux: http.NewServeMux()} }

// Handle registers h for pattern, like [http.ServeMux.Handle].
func (m *routeMux) Handle(pattern string, h http.Handler) {
	m.patterns = append(m.patterns, pattern)
	m.mux.Handle(pattern, h)
}

// HandleFunc registers f for pattern, like [http.ServeMux.HandleFunc].
func (m *routeMux) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	m.Handle(pattern, http.HandlerFunc(f))
}

// ServeHTTP dispatches to the registered handlers.
func (m *routeMux) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.mux.ServeHTTP(w, r) }

// Patterns returns the registered patterns in registration order.
func (m *routeMux) Patterns() []string { return append([]string(nil), m.patterns...) }
