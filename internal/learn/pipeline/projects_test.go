package pipeline

import (
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/project"
)

// TestSessionProjects: cwds that are gone from this machine are
// recognised as a known project's subdirectories and worktrees, from the
// transcript's own cwds and branches; a directory that only starts like a
// project is not one.
func TestSessionProjects(t *testing.T) {
	const app = "/gone-machine/src/app/.git"
	existing := []learn.Entry{{ID: "1", Type: learn.Procedure, Project: app}}
	turns := []learn.Turn{
		{Role: learn.User, Cwd: "/gone-machine/src/new", GitBranch: "main"},
		{Role: learn.Assistant, Cwd: "/gone-machine/src/app-feat-login", GitBranch: "feat/login"},
		{Role: learn.Assistant, Cwd: "/gone-machine/src/app-old", GitBranch: "main"},
	}
	of := sessionProjects(project.Resolve, turns, existing)
	dir := t.TempDir()
	for cwd, want := range map[string]string{
		"/gone-machine/src/app":                         app,
		"/gone-machine/src/app/assets/css":              app,
		"/gone-machine/src/app/.worktrees/fix-1":        app,
		"/gone-machine/src/app/.claude/worktrees/x/web": app,
		"/gone-machine/src/app-feat-login":              app,
		"/gone-machine/src/app-old":                     "/gone-machine/src/app-old",
		"/gone-machine/src/apple":                       "/gone-machine/src/apple",
		"/gone-machine/src/new/packages/ui":             "/gone-machine/src/new",
		"/gone-machine/src/new":                         "/gone-machine/src/new",
		dir:                                             project.Resolve(dir),
		"":                                              "",
	} {
		if got := of(cwd); got != want {
			t.Errorf("project of %q: got %q, want %q", cwd, got, want)
		}
	}
}
