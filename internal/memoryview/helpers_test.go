package memoryview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/memoryview/memoryviewtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// TestMain isolates git from the user's and system configuration.
func TestMain(m *testing.M) {
	testenv.IsolateGit()
	os.Exit(m.Run())
}

// rig is a Service over real stores in a temporary directory: a knowledge
// store with three entries, a seed with proposals made from two of them by
// the real loop (a git commit), and an embedded memory store.
type rig struct {
	svc     *Service
	entries []learn.Entry
	mem     *memory.Embedded
	seedDir string
}

func newRig(t *testing.T) *rig {
	t.Helper()
	dir := t.TempDir()
	ks, es := memoryviewtest.Knowledge(t, dir,
		learn.Entry{Type: learn.Procedure, Content: "Start the app with mix phx.server", Confidence: 0.8, Evidence: "ran 4 times", Source: "session:aaaa1111", ExtractedAt: "2026-11-01T10:00:00Z"},
		learn.Entry{Type: learn.Preference, Content: "User prefers pnpm over npm", Confidence: 0.9, Source: "session:bbbb2222", ExtractedAt: "2026-11-02T10:00:00Z"},
		learn.Entry{Type: learn.Rule, Content: "Never force-push to main", Confidence: 0.95, Source: "session:cccc3333", ExtractedAt: "2026-11-03T10:00:00Z"},
	)
	seedPath := filepath.Join(dir, "pai", "seed.json")
	memoryviewtest.Propose(t, ks, seedPath, "bbbb2222", es[1:])
	mem := memoryviewtest.Memories(t, dir, "s1", "/repos/app/.git", memory.Memory{Content: "Paired on the OAuth race"}, memory.Memory{Content: "CSS grid confusion"})
	return &rig{svc: &Service{Knowledge: ks, SeedPath: seedPath, Memory: mem, Project: "/repos/app/.git"}, entries: es, mem: mem, seedDir: filepath.Dir(seedPath)}
}

// gitLog returns the seed repository's commit subjects, newest first.
func gitLog(t *testing.T, dir string) []string {
	t.Helper()
	return strings.Split(testenv.Git(t, dir, "log", "--format=%s"), "\n")
}
