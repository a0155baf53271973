// Package coachtest sets up what most coach tests start from: a project
// directory with files, the coaching database, the workspace over the
// project and the action log. It is for tests only; every resource is
// released by tb.Cleanup.
package coachtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/workspace"
)

// Env is a coaching back end on temporary directories.
type Env struct {
	Project string               // the project directory (a temporary directory)
	Store   *store.Store         // paige.db in another temporary directory
	WS      *workspace.Workspace // over Project
	Actions *actionlog.Logger    // over Store, closed at cleanup
}

// New writes files (slash-separated paths relative to the project → content;
// a path ending in "/" is an empty directory) into a new project directory
// and opens the store, the workspace and the action log over it. It fails
// tb on any error.
func New(tb testing.TB, files map[string]string) *Env {
	tb.Helper()
	project := tb.TempDir()
	for name, content := range files {
		p := filepath.Join(project, filepath.FromSlash(name))
		dir := filepath.Dir(p)
		if name[len(name)-1] == '/' {
			dir = p
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		if dir == p {
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	st, err := store.Open(context.Background(), tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	ws, err := workspace.New(project, nil)
	if err != nil {
		tb.Fatal(err)
	}
	al := actionlog.New(st, nil)
	tb.Cleanup(func() { al.Close(context.Background()) })
	return &Env{Project: project, Store: st, WS: ws, Actions: al}
}

// ActionTypes returns the types of the actions st holds that match q, in
// the order [store.Store.RecentActions] gives them; an error fails tb.
func ActionTypes(tb testing.TB, st *store.Store, q store.ActionQuery) []coach.ActionType {
	tb.Helper()
	list, err := st.RecentActions(context.Background(), q)
	if err != nil {
		tb.Fatal(err)
	}
	var out []coach.ActionType
	for _, a := range list {
		out = append(out, a.Type)
	}
	return out
}
