// Package workbench serves the Paige workbench, the coach's face in the
// browser: a React single-page application built by Vite from web/workbench
// into dist/ and embedded in the binary (the PocketBase pattern: a binary
// built with `-tags no_ui` gets a nil [FS] and serves no UI).
//
// The workbench speaks only the documented WebSocket protocol on /ws and the
// terminal endpoint /pty (package terminal); everything it loads, Monaco's
// and xterm.js's code and workers included, comes from the binary, never a
// CDN, and the Content-Security-Policy of its page says so.
package workbench

import (
	"io/fs"
	"net/http"

	"github.com/paige-dev/paige/internal/spa"
)

// Prefix is the URL path the workbench is served under; it matches Vite's
// `base`.
const Prefix = "/"

// Excluded are the URL paths that belong to other routes and are never a
// workbench client route: a request under them that no other route answered
// is a 404, not the workbench page.
var Excluded = []string{"/api", "/ws", "/mcp", "/pty", "/ghostpath", "/health"}

// Handler returns the workbench handler for GET and HEAD under [Prefix]:
// files of fsys as they are (assets/ cached for a year, their names carry a
// content hash), index.html for client routes (paths without an extension
// outside [Excluded]), 404 otherwise. It panics if fsys has no index.html.
func Handler(fsys fs.FS) http.Handler {
	return spa.Handler(fsys, Prefix, &spa.Options{Exclude: Excluded})
}
