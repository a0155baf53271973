package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPaigeHookLinksNoSQLite: the SessionStart binary links the coaching
// markers (it decides from them whether the coaching state has anything to
// say) but neither the coach's store nor a SQLite driver: opening the
// database is paige's, started only when a marker asks for it.
func TestPaigeHookLinksNoSQLite(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if !deps["github.com/paige-dev/paige/internal/coach/marker"] || !deps["github.com/paige-dev/paige/internal/hook"] {
		t.Errorf("paige-hook does not link the hook and the coaching markers:\n%s", out)
	}
	for p := range deps {
		if strings.Contains(p, "sqlite") || strings.HasPrefix(p, "github.com/paige-dev/paige/internal/coach/store") || p == "database/sql" {
			t.Errorf("paige-hook links %s", p)
		}
	}
}
