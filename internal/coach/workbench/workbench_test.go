package workbench

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/spa/spatest"
)

// TestEmbeddedWorkbench checks the committed build: index.html exists,
// every asset it references under / exists, and nothing is loaded from
// another host (Monaco and xterm.js come from the binary, never a CDN).
func TestEmbeddedWorkbench(t *testing.T) {
	spatest.CheckBuild(t, FS(), Prefix)
	fsys := FS()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		for _, cdn := range []string{"cdn.jsdelivr.net/npm/monaco-editor", "unpkg.com/monaco-editor"} {
			if strings.Contains(string(b), cdn) {
				t.Errorf("%s points Monaco at %s: bundle it instead", p, cdn)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// serveWorkbench serves the embedded build; it skips t in a no_ui build.
func serveWorkbench(t *testing.T) *httptest.Server {
	t.Helper()
	fsys := FS()
	if fsys == nil {
		t.Skip("built with no_ui")
	}
	srv := httptest.NewServer(Handler(fsys))
	t.Cleanup(srv.Close)
	return srv
}

// get fetches path from srv and returns the status and the body.
func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	res, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(body)
}

// TestWorkbenchRoutes serves the embedded build at / and checks the client
// route fallback stops at the other routes' paths.
func TestWorkbenchRoutes(t *testing.T) {
	srv := serveWorkbench(t)
	for path, want := range map[string]int{"/": 200, "/work": 200, "/practice/k1": 200, "/status": 200,
		"/api/v1/x": 404, "/ghostpath/x": 404, "/pty": 404, "/nope.js": 404} {
		status, body := get(t, srv, path)
		if status != want {
			t.Errorf("GET %s: got %d, want %d", path, status, want)
		}
		if want == http.StatusOK && !strings.Contains(body, "<div id=\"root\"") {
			t.Errorf("GET %s: got %.80q, want the workbench page", path, body)
		}
	}
}

// TestWorkbenchFavicon: the icon browsers ask for is served, not 404.
func TestWorkbenchFavicon(t *testing.T) {
	srv := serveWorkbench(t)
	for _, path := range []string{"/favicon.ico", "/favicon.svg"} {
		status, body := get(t, srv, path)
		if status != http.StatusOK || len(body) == 0 || strings.Contains(body, "<div id=\"root\"") {
			t.Errorf("GET %s: %d, %d bytes", path, status, len(body))
		}
	}
}
