package web

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/spa/spatest"
)

// TestEmbeddedUI checks the committed build: index.html references only
// files that exist under the /ghostpath/ base, the script and the
// stylesheet among them. (Package spa tests the handler's rules.)
func TestEmbeddedUI(t *testing.T) {
	assets := 0
	for _, name := range spatest.CheckBuild(t, FS(), Prefix) {
		if strings.HasPrefix(name, "assets/") {
			assets++
		}
	}
	if assets < 2 {
		t.Errorf("index.html references %d assets under %s, want the script and the stylesheet", assets, Prefix)
	}
}

// TestHandler serves the embedded build: a deep link under [Prefix] is the
// page with GhostPath's own Content-Security-Policy.
func TestHandler(t *testing.T) {
	fsys := FS()
	if fsys == nil {
		t.Skip("built with no_ui")
	}
	rec := httptest.NewRecorder()
	Handler(fsys).ServeHTTP(rec, httptest.NewRequest("GET", "/ghostpath/sessions/1", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<div id="root">`) {
		t.Errorf("GET /ghostpath/sessions/1: got %d %.80q, want the GhostPath page", rec.Code, rec.Body.String())
	}
	if got := rec.Header().Get("Content-Security-Policy"); got != csp {
		t.Errorf("Content-Security-Policy: got %q, want %q", got, csp)
	}
}
