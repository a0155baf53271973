package pipeline

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// sessionProjects returns the project resolver for the cwds of one
// session's turns: resolve (internal/project: the git common directory of
// an existing cwd, every worktree of a repository being one project) for a
// cwd on this machine. For a cwd that no longer exists (a removed
// worktree, another machine's transcript) it recognises, from the
// transcript's own cwds and branches and the projects already known
// (existing entries):
//   - a subdirectory of a known project's root, or of the session's first
//     cwd, as that project ("cd assets" in a session started at the root);
//   - a worktree of a known project: <root>/.worktrees/<x>,
//     <root>/.claude/worktrees/<x>, <root>/worktrees/<x>, or a sibling
//     directory named <root>-<branch> (or .<branch>, _<branch>) whose lines
//     record that branch.
func sessionProjects(resolve func(string) string, turns []learn.Turn, existing []learn.Entry) func(string) string {
	roots := map[string]string{} // root path → project identity
	for _, e := range existing {
		if e.Project != "" {
			roots[projectRoot(e.Project)] = e.Project
		}
	}
	branch := map[string]string{}
	first := ""
	for _, t := range turns {
		if t.Cwd == "" {
			continue
		}
		if first == "" && !t.Sidechain {
			first = filepath.Clean(t.Cwd)
		}
		if t.GitBranch != "" {
			branch[filepath.Clean(t.Cwd)] = t.GitBranch
		}
	}
	if first != "" && !underAny(first, roots) {
		roots[first] = resolve(first)
	}
	paths := make([]string, 0, len(roots))
	for r := range roots {
		paths = append(paths, r)
	}
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) }) // deepest first
	return func(cwd string) string {
		if cwd == "" || !filepath.IsAbs(cwd) {
			return resolve(cwd)
		}
		cwd = filepath.Clean(cwd)
		if _, err := os.Stat(cwd); err == nil {
			return resolve(cwd)
		}
		if main, ok := worktreeRoot(cwd); ok {
			cwd = main
		}
		for _, r := range paths {
			if cwd == r || strings.HasPrefix(cwd, r+"/") || siblingWorktree(cwd, r, branch) {
				return roots[r]
			}
		}
		return resolve(cwd)
	}
}

// projectRoot is the directory a project identity names: a git common
// directory's parent, else the path itself.
func projectRoot(id string) string {
	if filepath.Base(id) == ".git" {
		return filepath.Dir(id)
	}
	return id
}

// worktreeDirs are where tools put a repository's worktrees inside it.
var worktreeDirs = []string{"/.worktrees/", "/.claude/worktrees/", "/worktrees/"}

// worktreeRoot returns the repository root of a worktree kept inside it.
func worktreeRoot(cwd string) (string, bool) {
	for _, d := range worktreeDirs {
		if i := strings.Index(cwd, d); i > 0 {
			return cwd[:i], true
		}
	}
	return "", false
}

// siblingWorktree reports whether cwd (or the directory it lies in) is a
// worktree beside root named after the branch its lines record:
// /src/app-feat-login for root /src/app on branch feat/login.
func siblingWorktree(cwd, root string, branch map[string]string) bool {
	for dir := cwd; filepath.Dir(dir) != dir; dir = filepath.Dir(dir) {
		if filepath.Dir(dir) != filepath.Dir(root) {
			continue
		}
		b := branch[cwd]
		if b == "" {
			b = branch[dir]
		}
		rest, ok := strings.CutPrefix(filepath.Base(dir), filepath.Base(root))
		if !ok || b == "" || len(rest) < 2 || !strings.ContainsRune("-._", rune(rest[0])) {
			return false
		}
		return rest[1:] == strings.ReplaceAll(b, "/", "-") || rest[1:] == filepath.Base(b)
	}
	return false
}

// underAny reports whether dir is one of roots or lies inside one.
func underAny(dir string, roots map[string]string) bool {
	for r := range roots {
		if dir == r || strings.HasPrefix(dir, r+"/") {
			return true
		}
	}
	return false
}
