// Package web serves the GhostPath single-page UI (React, built by Vite from
// web/ghostpath into dist/ and embedded in the binary).
//
// The UI is embedded behind the `!no_ui` build tag; a binary built with
// `-tags no_ui` gets a nil [FS] and serves no UI (the PocketBase pattern).
// [Handler] serves the files and answers every other path under its prefix
// that looks like a client route (no file extension) with index.html, so
// deep links such as /ghostpath/sessions/{id} survive a reload (package spa).
package web

import (
	"io/fs"
	"net/http"

	"github.com/paige-dev/paige/internal/spa"
)

// Prefix is the URL path the UI is served under; it matches Vite's `base`.
const Prefix = "/ghostpath/"

// csp allows only same-origin scripts, styles, fetches and images: the UI
// renders model output as text, and this keeps it so even if a bug slipped.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"

// Handler returns the UI handler for requests under [Prefix]. Existing files
// are served as they are (assets/ with a one-year immutable cache, as their
// names carry a content hash); a missing path without an extension gets
// index.html; a missing file with an extension gets 404. Handler panics if
// fsys has no index.html (a wiring mistake, found at startup).
func Handler(fsys fs.FS) http.Handler {
	return spa.Handler(fsys, Prefix, &spa.Options{CSP: csp})
}
