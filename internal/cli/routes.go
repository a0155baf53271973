package cli

import (
	"context"
	"net/http"

	"github.com/paige-dev/paige/internal/server"
)

// wire opens every capability's services and lists the whole HTTP surface.
// Each capability registers its shutdown steps on a.
func wire(ctx context.Context, a *app, mux *http.ServeMux) error {
	mux.Handle("GET /health", server.HandleHealth(a.start, nil))
	if err := openTerminal(a); err != nil {
		return err
	}
	if err := wireCoach(ctx, a, mux); err != nil {
		return err
	}
	if err := wireIdeate(ctx, a, mux); err != nil {
		return err
	}
	if err := wireGhostPathUI(ctx, a, mux); err != nil {
		return err
	}
	if err := wireLearn(ctx, a, mux); err != nil {
		return err
	}
	return wireWorkbench(ctx, a, mux)
}
