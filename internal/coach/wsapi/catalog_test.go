package wsapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach/session"
)

func TestCatalogCounts(t *testing.T) {
	seen := map[string]bool{}
	count := map[Direction]int{}
	for _, m := range Catalog {
		if seen[m.Type] {
			t.Errorf("%s listed twice", m.Type)
		}
		seen[m.Type] = true
		count[m.Direction]++
		if _, err := json.Marshal(m.Payload()); err != nil {
			t.Errorf("%s payload does not encode: %v", m.Type, err)
		}
	}
	// 23 + 2 (status-table union) + 8 (workbench) client types; 32 + 5
	// (later stories) + 5 (workbench) server types.
	if count[ClientToServer] != 33 || count[ServerToClient] != 42 {
		t.Errorf("got %d client and %d server types, want 33 and 42", count[ClientToServer], count[ServerToClient])
	}
}

// TestRouterCoversCatalog checks that the router table and the catalog's
// client→server types are the same set (FR-051: every type handled).
func TestRouterCoversCatalog(t *testing.T) {
	s := New(Options{Files: nopFiles{}, Session: &session.Service{}})
	for _, m := range Catalog {
		_, routed := s.routes[m.Type]
		if routed != (m.Direction == ClientToServer) {
			t.Errorf("%s (%s): routed = %v", m.Type, m.Direction, routed)
		}
	}
	if len(s.routes) != 33 {
		t.Errorf("router has %d routes, want 33", len(s.routes))
	}
}

// TestDocsListEveryType keeps docs/websocket.md in step with the catalog.
func TestDocsListEveryType(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "websocket.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Catalog {
		if !strings.Contains(string(b), "| `"+m.Type+"` |") {
			t.Errorf("docs/websocket.md has no row for %s", m.Type)
		}
	}
}
