package spa

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

var rootExclude = &Options{Exclude: []string{"/api", "/ws", "/mcp", "/pty", "/ghostpath", "/health"}}

// request is one request to a handler and what it must answer.
type request struct {
	name, method, path string
	wantStatus         int
	wantBody           string // prefix
	wantType           string // prefix
	wantCache          string
}

const immutable = "public, max-age=31536000, immutable"

// TestHandlerAtRoot is the workbench's case: the UI at / with the other
// routes' paths excluded from the client-route fallback.
func TestHandlerAtRoot(t *testing.T) {
	tests := []request{
		{"root", "GET", "/", 200, "<!doctype html>", "text/html", "no-cache"},
		{"client route", "GET", "/work", 200, "<!doctype html>", "text/html", "no-cache"},
		{"deep client route", "GET", "/practice/kata-1/", 200, "<!doctype html>", "text/html", "no-cache"},
		{"asset", "GET", "/assets/app-abc.js", 200, "console.log(1)", "text/javascript", immutable},
		{"top-level file", "GET", "/favicon.svg", 200, "<svg/>", "image/svg+xml", "no-cache"},
		{"missing asset", "GET", "/assets/gone.js", 404, "404", "text/plain", ""},
		{"prefix-alike is a client route", "GET", "/apis", 200, "<!doctype html>", "text/html", "no-cache"},
		{"post", "POST", "/", 405, "method not allowed", "text/plain", ""},
	}
	for _, p := range []string{"/api/v1/nothing", "/api", "/ghostpath/x", "/pty", "/health/x"} {
		tests = append(tests, request{p + " is not the UI", "GET", p, 404, "404", "text/plain", ""})
	}
	serve(t, Handler(testFS(), "/", rootExclude), tests)
}

// TestHandlerUnderPrefix is GhostPath's case: the UI under /ghostpath/.
func TestHandlerUnderPrefix(t *testing.T) {
	serve(t, Handler(testFS(), "/ghostpath/", nil), []request{
		{"root", "GET", "/ghostpath/", 200, "<!doctype html>", "text/html", "no-cache"},
		{"root without slash", "GET", "/ghostpath", 200, "<!doctype html>", "text/html", "no-cache"},
		{"index by name", "GET", "/ghostpath/index.html", 200, "<!doctype html>", "text/html", "no-cache"},
		{"client route", "GET", "/ghostpath/sessions/0192-abc", 200, "<!doctype html>", "text/html", "no-cache"},
		{"client route report", "GET", "/ghostpath/sessions/0192-abc/report/", 200, "<!doctype html>", "text/html", "no-cache"},
		{"asset", "GET", "/ghostpath/assets/app-abc.js", 200, "console.log(1)", "text/javascript", immutable},
		{"css asset", "GET", "/ghostpath/assets/app-abc.css", 200, "body{}", "text/css", immutable},
		{"top-level file", "GET", "/ghostpath/favicon.svg", 200, "<svg/>", "image/svg+xml", "no-cache"},
		{"missing asset", "GET", "/ghostpath/assets/gone-123.js", 404, "404", "text/plain", ""},
		{"missing file with extension", "GET", "/ghostpath/robots.txt", 404, "404", "text/plain", ""},
		{"directory is a client route", "GET", "/ghostpath/assets", 200, "<!doctype html>", "text/html", "no-cache"},
		{"outside prefix", "GET", "/elsewhere", 404, "404", "text/plain", ""},
		{"double slash", "GET", "/ghostpath//etc", 404, "404", "text/plain", ""},
		{"head", "HEAD", "/ghostpath/sessions/x", 200, "", "text/html", "no-cache"},
		{"post", "POST", "/ghostpath/", 405, "method not allowed", "text/plain", ""},
	})
}

// serve sends each request to h through a real server and checks the answer.
func serve(t *testing.T, h http.Handler, tests []request) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
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

func TestHandlerCSP(t *testing.T) {
	for _, tt := range []struct {
		opts *Options
		want string
	}{{nil, DefaultCSP}, {&Options{CSP: "default-src 'none'"}, "default-src 'none'"}} {
		rec := httptest.NewRecorder()
		Handler(testFS(), "/", tt.opts).ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
		if got := rec.Header().Get("Content-Security-Policy"); got != tt.want {
			t.Errorf("CSP: got %q, want %q", got, tt.want)
		}
	}
}

func TestHandlerPanicsWithoutIndex(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Handler without index.html: got no panic, want one")
		}
	}()
	Handler(fstest.MapFS{"assets/a.js": {Data: []byte("x")}}, "/", nil)
}

// FuzzFileName sends arbitrary paths to the handler at / and under
// /ghostpath/: FileName never yields an invalid fs path, and the handler
// never panics, never serves a file outside the UI, and answers only 200,
// 301, 304, 404 or 405.
func FuzzFileName(f *testing.F) {
	for _, s := range []string{"/", "/assets/app-abc.js", "/../etc/passwd", "/%2e%2e/x", "//", "/a\x00b", "/api/x",
		"/ghostpath/", "/ghostpath/assets/app-abc.js", "/ghostpath/../etc/passwd", "/ghostpath/sessions/%2e%2e/x",
		"/ghostpath//", "/ghostpath/a\x00b", "/ghostpath/assets/"} {
		f.Add(s)
	}
	handlers := map[string]http.Handler{"/": Handler(testFS(), "/", rootExclude), "/ghostpath/": Handler(testFS(), "/ghostpath/", nil)}
	f.Fuzz(func(t *testing.T, p string) {
		for prefix, h := range handlers {
			name, ok := FileName(prefix, p)
			if ok && !fs.ValidPath(name) {
				t.Fatalf("FileName(%q, %q) = %q, not a valid fs path", prefix, p, name)
			}
			req := httptest.NewRequest("GET", "/", nil)
			req.URL.Path = p
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			switch rec.Code {
			case 200, 301, 304, 404, 405:
			default:
				t.Fatalf("GET %q under %s: status %d", p, prefix, rec.Code)
			}
		}
	})
}

// TestDist: the dist directory of an embedded build is the UI's root.
func TestDist(t *testing.T) {
	ui := Dist(fstest.MapFS{"dist/index.html": {Data: []byte("<!doctype html>")}})
	if b, err := fs.ReadFile(ui, "index.html"); err != nil || string(b) != "<!doctype html>" {
		t.Errorf("Dist: index.html %q, %v", b, err)
	}
}
