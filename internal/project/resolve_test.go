package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

// TestResolve: an existing directory resolves as ID does (a worktree to
// the common directory); a directory gone from inside a repository
// resolves to that repository; a directory gone from outside git to its
// path as written; a relative or empty one to no project.
func TestResolve(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed to make the repositories this test resolves: %v", err)
	}
	base := t.TempDir()
	repo := filepath.Join(base, "app")
	os.MkdirAll(repo, 0o755)
	testenv.Git(t, repo, "init", "-q")
	os.WriteFile(filepath.Join(repo, "f"), []byte("x"), 0o644)
	testenv.Git(t, repo, "add", "f")
	testenv.Git(t, repo, "commit", "-qm", "init")
	wt := filepath.Join(base, "app-feature-x")
	testenv.Git(t, repo, "worktree", "add", "-q", "-b", "x", wt)
	common := mustID(t, repo)
	plain := filepath.Join(base, "plain")
	os.MkdirAll(plain, 0o755)

	for _, c := range []struct{ dir, want string }{
		{repo, common},
		{wt, common},
		{filepath.Join(repo, "removed", "deeper"), common},
		{filepath.Join(wt, "gone"), common},
		{filepath.Join(plain, "tmpabc123"), filepath.Join(plain, "tmpabc123")},
		{"/nonexistent-paige-root/home/marco/projects/spotter/", "/nonexistent-paige-root/home/marco/projects/spotter"},
		{"relative/dir", ""},
		{"", ""},
	} {
		if got := Resolve(c.dir); got != c.want {
			t.Errorf("Resolve(%q) = %q, want %q", c.dir, got, c.want)
		}
	}
}
