package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

func mustID(t *testing.T, dir string) string {
	t.Helper()
	id, err := ID(dir)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestWorktreesAreOneProject: the main checkout, a subdirectory of it and
// a linked worktree (git worktree add) are one project, identified by the
// git common directory (as git itself reports it); another repository of
// the same base name is another project.
func TestWorktreesAreOneProject(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed to make the worktrees this test identifies: %v", err)
	}
	base := t.TempDir()
	repo := filepath.Join(base, "one", "app")
	if err := os.MkdirAll(filepath.Join(repo, "sub", "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, repo, "init", "-q")
	os.WriteFile(filepath.Join(repo, "f"), []byte("x"), 0o644)
	testenv.Git(t, repo, "add", "f")
	testenv.Git(t, repo, "commit", "-qm", "init")
	wt := filepath.Join(base, "wt-feature")
	testenv.Git(t, repo, "worktree", "add", "-q", "-b", "feature", wt)

	want := testenv.Git(t, wt, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if real, err := filepath.EvalSymlinks(want); err == nil {
		want = real
	}
	for _, d := range []string{repo, filepath.Join(repo, "sub", "dir"), wt} {
		if got := mustID(t, d); got != want {
			t.Errorf("ID(%s) = %s, want %s", d, got, want)
		}
	}

	other := filepath.Join(base, "two", "app") // same base name, other repository
	os.MkdirAll(other, 0o755)
	testenv.Git(t, other, "init", "-q")
	if mustID(t, other) == mustID(t, repo) {
		t.Errorf("two repositories named app share an identity")
	}
}

// TestOutsideGit: a directory outside any repository is identified by its
// absolute path, so two directories with one base name differ.
func TestOutsideGit(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "x", "app"), filepath.Join(base, "y", "app")
	os.MkdirAll(a, 0o755)
	os.MkdirAll(b, 0o755)
	realA, _ := filepath.EvalSymlinks(a)
	if got := mustID(t, a); got != realA {
		t.Errorf("ID(%s) = %s, want %s", a, got, realA)
	}
	if mustID(t, a) == mustID(t, b) {
		t.Errorf("two directories named app share an identity")
	}
	if _, err := ID(filepath.Join(base, "missing")); err == nil {
		t.Errorf("a missing directory has an identity")
	}
}

// TestBrokenGitFile: an unreadable .git file is an error, not a wrong
// identity.
func TestBrokenGitFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".git"), []byte("nonsense\n"), 0o644)
	if _, err := ID(dir); err == nil {
		t.Errorf("a .git file without gitdir: gave an identity")
	}
}
