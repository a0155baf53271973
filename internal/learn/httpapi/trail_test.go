package httpapi

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/learn/knowledge/knowledgetest"
	"github.com/paige-dev/paige/internal/learn/trail/trailtest"
)

// TestExtractLearnsFromTheTrail: POST /api/extract learns the procedures a
// transcript's tool trail shows, unless Deps.NoTrail says not to.
func TestExtractLearnsFromTheTrail(t *testing.T) {
	for _, off := range []bool{false, true} {
		root := t.TempDir()
		path := filepath.Join(root, "s.jsonl")
		os.WriteFile(path, []byte(trailtest.New("s", "/src/app").Bash("cargo test", "test result: ok", 0).String()), 0o644)
		store := knowledgetest.Open(t)
		mux := http.NewServeMux()
		AddRoutes(mux, Deps{Store: store, Roots: NewRoots(root), NoTrail: off})
		srv := httptest.NewServer(mux)
		var got extractResp
		if code := call(t, "POST", srv.URL+"/api/extract", jsonBody(map[string]any{"transcriptPath": path}), &got); code != 200 {
			t.Fatalf("status %d: %+v", code, got)
		}
		srv.Close()
		act, _ := store.Active()
		if want := map[bool]int{false: 2, true: 0}[off]; len(act) != want || len(got.Entries) != want {
			t.Errorf("NoTrail=%v: store holds %+v, answer %+v; want %d entries (tests: cargo test, language: Rust)", off, act, got.Entries, want)
		}
	}
}
