// Package web serves the GhostPath single-page UI (React, built by Vite from
// web/ghostpath into dist/ and embedded in the binary).
//
// The UI is embedded behind the `!no_ui` build tag; a binary built with
// `-tags no_ui` gets a nil [FS] and serves no UI (the PocketBase pattern).
// [Handler] serves the files and answers every other path under its prefix
// that looks like a client route (no file extension) with index.html, so
// deep links such as /ghostpath/sessions/{id} survive a reload.
package web

import (
	"bytes"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
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
	index, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		panic("web: UI has no index.html: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := fileName(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		if name != "index.html" && isFile(fsys, name) {
			if strings.HasPrefix(name, "assets/") {
				h.Set("Cache-Control", "public, max-age=31536000, immutable")
			} else {
				h.Set("Cache-Control", "no-cache")
			}
			http.ServeFileFS(w, r, fsys, name)
			return
		}
		if name != "index.html" && path.Ext(name) != "" {
			http.NotFound(w, r)
			return
		}
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Security-Policy", csp)
		h.Set("Content-Type", "text/html; charset=utf-8")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	})
}

// fileName maps a request path under Prefix to a file name in the UI's FS;
// ok is false for paths outside Prefix or that do not name a valid file.
func fileName(urlPath string) (name string, ok bool) {
	if urlPath+"/" == Prefix {
		return "index.html", true
	}
	rest, found := strings.CutPrefix(urlPath, Prefix)
	if !found {
		return "", false
	}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" {
		return "index.html", true
	}
	if !fs.ValidPath(rest) {
		return "", false
	}
	return rest, true
}

func isFile(fsys fs.FS, name string) bool {
	fi, err := fs.Stat(fsys, name)
	return err == nil && fi.Mode().IsRegular()
}
