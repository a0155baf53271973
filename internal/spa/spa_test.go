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
		"index.html":        {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/app-abc.js": {Data: []byte("console.log(1)")},
		"favicon.svg":       {Data: []byte("<svg/>")},
	}
}

var rootExclude = &Options{Exclude: []string{"/api", "/ws", "/mcp", "/pty", "/ghostpath", "/health"}}

// TestHandlerAtRoot is the workbench's case: the UI at / with the other
// routes' paths excluded from the client-route fallback.
func TestHandlerAtRoot(t *testing.T) {
	srv := httptest.NewServer(Handler(testFS(), "/", rootExclude))
	t.Cleanup(srv.Close)
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantBody           string // prefix
		wantCache          string
	}{
		{"root", "GET", "/", 200, "<!doctype html>", "no-cache"},
		{"client route", "GET", "/work", 200, "<!doctype html>", "no-cache"},
		{"deep client route", "GET", "/practice/kata-1/", 200, "<!doctype html>", "no-cache"},
		{"asset", "GET", "/assets/app-abc.js", 200, "console.log(1)", "public, max-age=31536000, immutable"},
		{"top-level file", "GET", "/favicon.svg", 200, "<svg/>", "no-cache"},
		{"missing asset", "GET", "/assets/gone.js", 404, "404", ""},
		{"api is not the UI", "GET", "/api/v1/nothing", 404, "404", ""},
		{"api root is not the UI", "GET", "/api", 404, "404", ""},
		{"ghostpath is not the UI", "GET", "/ghostpath/x", 404, "404", ""},
		{"pty is not the UI", "GET", "/pty", 404, "404", ""},
		{"health is not the UI", "GET", "/health/x", 404, "404", ""},
		{"prefix-alike is a client route", "GET", "/apis", 200, "<!doctype html>", "no-cache"},
		{"post", "POST", "/", 405, "method not allowed", ""},
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
	Handler(fstest.MapFS{}, "/", nil)
}

// FuzzFileName: FileName never yields an invalid fs path and the handler
// at / answers only 200, 301, 304, 404 or 405.
func FuzzFileName(f *testing.F) {
	for _, s := range []string{"/", "/assets/app-abc.js", "/../etc/passwd", "/%2e%2e/x", "//", "/a\x00b", "/api/x"} {
		f.Add(s)
	}
	h := Handler(testFS(), "/", rootExclude)
	f.Fuzz(func(t *testing.T, p string) {
		name, ok := FileName("/", p)
		if ok && !fs.ValidPath(name) {
			t.Fatalf("FileName(%q) = %q, not a valid fs path", p, name)
		}
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = p
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case 200, 301, 304, 404, 405:
		default:
			t.Fatalf("GET %q: status %d", p, rec.Code)
		}
	})
}
