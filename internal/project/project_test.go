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

// gitRepoWithWorktree makes a git repository at repo with one commit and
// a worktree of it at wt on a new branch.
func gitRepoWithWorktree(t *testing.T, repo, wt, branch string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed to make the repositories these tests identify: %v", err)
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, repo, "init", "-q")
	os.WriteFile(filepath.Join(repo, "f"), []byte("x"), 0o644)
	testenv.Git(t, repo, "add", "f")
	testenv.Git(t, repo, "commit", "-qm", "init")
	testenv.Git(t, repo, "worktree", "add", "-q", "-b", branch, wt)
}

// TestWorktreesAreOneProject: the main checkout, a subdirectory of it and
// a linked worktree (git worktree add) are one project, identified by the
// git common directory (as git itself reports it); another repository of
// the same base name is another project.
func TestWorktreesAreOneProject(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "one", "app")
	wt := filepath.Join(base, "wt-feature")
	gitRepoWithWorktree(t, repo, wt, "feature")
	if err := os.MkdirAll(filepath.Join(repo, "sub", "dir"), 0o755); err != nil {
		t.Fatal(err)
	}

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

// TestResolve: an existing directory resolves as ID does (a worktree to
// the common directory); a directory gone from inside a repository
// resolves to that repository; a directory gone from outside git to its
// path as written; a relative or empty one to no project.
func TestResolve(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "app")
	wt := filepath.Join(base, "app-feature-x")
	gitRepoWithWorktree(t, repo, wt, "x")
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
