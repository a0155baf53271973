package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/project"
	"github.com/paige-dev/paige/internal/seed"
)

// TestSessionStartProposalsOfItsProject: Claude Code started in a
// subdirectory of a repository is given that repository's proposals and the
// general ones, never another project's.
func TestSessionStartProposalsOfItsProject(t *testing.T) {
	repo := t.TempDir()
	sub := filepath.Join(repo, "cmd", "cli")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	id, err := project.ID(repo)
	if err != nil {
		t.Fatal(err)
	}
	s := seed.Defaults()
	s.Identity.PrincipalName = "Ada"
	at := "2026-12-01T00:00:00Z"
	s.State.Proposals = []seed.Proposal{
		{ID: "1", Type: seed.TypePattern, Content: "Runs go test ./...", Source: "session:a", ExtractedAt: at, Status: seed.StatusPending, Project: id},
		{ID: "2", Type: seed.TypePattern, Content: "Runs mix credo --strict", Source: "session:b", ExtractedAt: at, Status: seed.StatusPending, Project: "/elsewhere/.git"},
		{ID: "3", Type: seed.TypePattern, Content: "Prefers short answers", Source: "session:c", ExtractedAt: at, Status: seed.StatusPending},
	}
	seedPath := filepath.Join(t.TempDir(), "seed.json")
	if err := seed.Write(seedPath, s); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PORT": "1", "DATA_DIR": t.TempDir()}
	out, errOut, code := runHook(t, vars, `{"session_id":"s","cwd":"`+sub+`"}`, "session-start", "--seed", seedPath)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "Pending proposals (2):") || !strings.Contains(out, "go test ./...") || !strings.Contains(out, "short answers") || strings.Contains(out, "mix credo") {
		t.Errorf("context for %s:\n%s", sub, out)
	}
}
