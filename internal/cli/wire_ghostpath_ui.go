package cli

import (
	"context"

	"github.com/paige-dev/paige/internal/ideate/web"
)

// wireGhostPathUI mounts the embedded GhostPath UI at /ghostpath/ (client
// routes fall back to index.html). A binary built with -tags no_ui has no UI
// and mounts nothing; the API under /api/v1/ is wired separately.
func wireGhostPathUI(_ context.Context, a *app, mux *routeMux) error {
	fsys := web.FS()
	if fsys == nil {
		a.log.Info("ghostpath UI not built into this binary (no_ui)")
		return nil
	}
	// ServeMux redirects /ghostpath to /ghostpath/ for this subtree pattern.
	mux.Handle("GET "+web.Prefix, web.Handler(fsys))
	return nil
}
