// Package spa serves an embedded single-page application (a Vite build:
// index.html plus content-hashed assets/) under a URL prefix: the one
// handler behind both the workbench at / and GhostPath at /ghostpath/.
//
// Existing files are served as they are, assets/ with a one-year immutable
// cache (their names carry a content hash) and everything else with
// no-cache; a missing path without a file extension is a client route and
// gets index.html, so deep links survive a reload; a missing file with an
// extension is 404. Paths listed in [Options.Exclude] are never the UI (they
// belong to other routes and answer 404 here), so a typo under /api/ does not
// come back as an HTML page.
package spa

import (
	"bytes"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// DefaultCSP allows only same-origin scripts, styles, fetches, workers and
// images: the UIs render model output as text, and this keeps it so even if
// a bug slipped. blob: workers and images are what Monaco and xterm.js need.
const DefaultCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
	"object-src 'none'; base-uri 'self'; frame-ancestors 'none'"

// Options configure [Handler]. A nil *Options is the same as a zero one.
type Options struct {
	// CSP is the Content-Security-Policy of index.html. If empty, DefaultCSP.
	CSP string
	// Exclude lists URL paths (without trailing slash, e.g. "/api") that are
	// never the UI: the path itself and everything under it answer 404.
	Exclude []string
}

// Handler returns the UI handler for GET and HEAD requests under prefix
// (which must start and end with "/"); other methods get 405. Handler
// panics if fsys has no index.html (a wiring mistake, found at startup).
func Handler(fsys fs.FS, prefix string, opts *Options) http.Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.CSP == "" {
		o.CSP = DefaultCSP
	}
	index, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		panic("spa: UI has no index.html: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := FileName(prefix, r.URL.Path)
		if !ok || excluded(o.Exclude, r.URL.Path) {
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
		h.Set("Content-Security-Policy", o.CSP)
		h.Set("Content-Type", "text/html; charset=utf-8")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	})
}

// Dist returns the dist directory of an embedded Vite build (the UI
// package's `//go:embed all:dist`): what the UI package's FS returns.
func Dist(embedded fs.FS) fs.FS {
	sub, err := fs.Sub(embedded, "dist")
	if err != nil {
		panic("spa: embedded dist: " + err.Error()) // cannot happen: "dist" is a valid path
	}
	return sub
}

// FileName maps a request path under prefix to a file name in the UI's FS;
// ok is false for paths outside prefix or that do not name a valid file.
// The prefix itself, with or without its trailing slash, is index.html.
func FileName(prefix, urlPath string) (name string, ok bool) {
	if urlPath+"/" == prefix {
		return "index.html", true
	}
	rest, found := strings.CutPrefix(urlPath, prefix)
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

// excluded reports whether urlPath is one of the excluded paths or under one.
func excluded(exclude []string, urlPath string) bool {
	for _, e := range exclude {
		e = strings.TrimSuffix(e, "/")
		if urlPath == e || strings.HasPrefix(urlPath, e+"/") {
			return true
		}
	}
	return false
}

func isFile(fsys fs.FS, name string) bool {
	fi, err := fs.Stat(fsys, name)
	return err == nil && fi.Mode().IsRegular()
}
