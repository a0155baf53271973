package web

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func testFS() fstest.MapFS {
	return fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/app-abc.js":  {Data: []byte("console.log(1)")},
		"assets/app-abc.css": {Data: []byte("body{}")},
		"favicon.svg":        {Data: []byte("<svg/>")},
	}
}

func TestHandler(t *testing.T) {
	srv := httptest.NewServer(Handler(testFS()))
	t.Cleanup(srv.Close)
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantBody           string // prefix
		wantType           string // prefix
		wantCache          string
	}{
		{"root", "GET", "/ghostpath/", 200, "<!doctype html>", "text/html", "no-cache"},
		{"root without slash", "GET", "/ghostpath", 200, "<!doctype html>", "text/html", "no-cache"},
		{"index by name", "GET", "/ghostpath/index.html", 200, "<!doctype html>", "text/html", "no-cache"},
		{"client route", "GET", "/ghostpath/sessions/0192-abc", 200, "<!doctype html>", "text/html", "no-cache"},
		{"client route report", "GET", "/ghostpath/sessions/0192-abc/report/", 200, "<!doctype html>", "text/html", "no-cache"},
		{"asset", "GET", "/ghostpath/assets/app-abc.js", 200, "console.log(1)", "text/javascript", "public, max-age=31536000, immutable"},
		{"css asset", "GET", "/ghostpath/assets/app-abc.css", 200, "body{}", "text/css", "public, max-age=31536000, immutable"},
		{"top-level file", "GET", "/ghostpath/favicon.svg", 200, "<svg/>", "image/svg+xml", "no-cache"},
		{"missing asset", "GET", "/ghostpath/assets/gone-123.js", 404, "404", "text/plain", ""},
		{"missing file with extension", "GET", "/ghostpath/robots.txt", 404, "404", "text/plain", ""},
		{"directory is a client route", "GET", "/ghostpath/assets", 200, "<!doctype html>", "text/html", "no-cache"},
		{"outside prefix", "GET", "/elsewhere", 404, "404", "text/plain", ""},
		{"double slash", "GET", "/ghostpath//etc", 404, "404", "text/plain", ""},
		{"head", "HEAD", "/ghostpath/sessions/x", 200, "", "text/html", "no-cache"},
		{"post", "POST", "/ghostpath/", 405, "method not allowed", "text/plain", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status: got %d, want %d", res.StatusCode, tt.wantStatus)
			}
			if !strings.HasPrefix(string(body), tt.wantBody) {
				t.Errorf("body: got %q, want prefix %q", body, tt.wantBody)
			}
			if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.wantType) {
				t.Errorf("Content-Type: got %q, want prefix %q", got, tt.wantType)
			}
			if got := res.Header.Get("Cache-Control"); got != tt.wantCache {
				t.Errorf("Cache-Control: got %q, want %q", got, tt.wantCache)
			}
		})
	}
}

func TestHandlerIndexHasCSP(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler(testFS()).ServeHTTP(rec, httptest.NewRequest("GET", "/ghostpath/sessions/1", nil))
	if got := rec.Header().Get("Content-Security-Policy"); !strings.Contains(got, "script-src 'self'") {
		t.Errorf("Content-Security-Policy: got %q, want script-src 'self'", got)
	}
}

func TestHandlerPanicsWithoutIndex(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Handler without index.html: got no panic, want one")
		}
	}()
	Handler(fstest.MapFS{"assets/a.js": {Data: []byte("x")}})
}

// TestEmbeddedUI checks the committed build: index.html references only
// assets that exist, under the /ghostpath/ base.
func TestEmbeddedUI(t *testing.T) {
	fsys := FS()
	if fsys == nil {
		t.Skip("built with no_ui")
	}
	index, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		t.Fatalf("read index.html: %v", err)
	}
	refs := 0
	for _, part := range strings.Split(string(index), `"`) {
		name, ok := strings.CutPrefix(part, Prefix)
		if !ok || !strings.HasPrefix(name, "assets/") {
			continue
		}
		refs++
		if _, err := fs.Stat(fsys, name); err != nil {
			t.Errorf("index.html references %s: %v", part, err)
		}
	}
	if refs < 2 {
		t.Errorf("index.html references %d assets under %s, want the script and the stylesheet", refs, Prefix)
	}
}

// FuzzHandler sends arbitrary paths: the handler never panics, never serves
// a file outside the UI, and answers only 200, 301, 304, 404 or 405.
func FuzzHandler(f *testing.F) {
	for _, s := range []string{"/ghostpath/", "/ghostpath/assets/app-abc.js", "/ghostpath/../etc/passwd",
		"/ghostpath/sessions/%2e%2e/x", "/ghostpath//", "/ghostpath/a\x00b", "/ghostpath/assets/"} {
		f.Add(s)
	}
	h := Handler(testFS())
	f.Fuzz(func(t *testing.T, path string) {
		name, ok := fileName(path)
		if ok && !fs.ValidPath(name) {
			t.Fatalf("fileName(%q) = %q, not a valid fs path", path, name)
		}
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = path
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case 200, 301, 304, 404, 405:
		default:
			t.Fatalf("GET %q: status %d", path, rec.Code)
		}
	})
}
