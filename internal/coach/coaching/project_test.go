package coaching

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/testenv"
)

// repos makes two repositories both called api, a repository app with a
// linked worktree app-feature-x, and returns their directories.
func repos(t *testing.T) (apiA, apiB, app, feature string) {
	root := t.TempDir()
	apiA, apiB = filepath.Join(root, "team-a", "api"), filepath.Join(root, "team-b", "api")
	app, feature = filepath.Join(root, "app"), filepath.Join(root, "app-feature-x")
	for _, d := range []string{apiA, apiB, app} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		testenv.Git(t, d, "init", "-q")
		testenv.Git(t, d, "commit", "-q", "--allow-empty", "-m", "init")
	}
	testenv.Git(t, app, "worktree", "add", "-q", "-b", "feature-x", feature)
	return apiA, apiB, app, feature
}

// TestMemoriesKeyByProjectIdentity: two repositories both named api do not
// share memories; a worktree app-feature-x of app does.
func TestMemoriesKeyByProjectIdentity(t *testing.T) {
	apiA, apiB, app, feature := repos(t)
	ctx := context.Background()
	mem, err := memory.OpenEmbedded(ctx, filepath.Join(t.TempDir(), "memory.db"), embedding.NewLexical(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	store := func(sessionID, dir, content string) {
		if _, err := mem.AddMemories(ctx, sessionID, ProjectName(coach.Session{ProjectDir: dir}), []memory.Memory{{Content: content}}); err != nil {
			t.Fatal(err)
		}
	}
	store("a", apiA, "team A api uses gin routing")
	store("b", apiB, "team B api uses echo routing")
	store("m", app, "app uses pnpm workspaces")
	recall := func(dir string) []string {
		rs, err := mem.QueryMemories(ctx, memory.Query{Text: "routing workspaces", Project: ProjectName(coach.Session{ProjectDir: dir})})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.Content)
		}
		return out
	}
	if got := recall(apiA); len(got) != 1 || !strings.Contains(got[0], "team A") {
		t.Errorf("api (team A) recalls %q, want only its own", got)
	}
	if got := recall(apiB); len(got) != 1 || !strings.Contains(got[0], "team B") {
		t.Errorf("api (team B) recalls %q, want only its own", got)
	}
	if got := recall(feature); len(got) != 1 || got[0] != "app uses pnpm workspaces" {
		t.Errorf("worktree app-feature-x recalls %q, want app's memory", got)
	}
	if got := recall(filepath.Dir(apiA)); len(got) != 0 {
		t.Errorf("team-a (outside git) recalls %q", got)
	}
}

// TestMigrateMemoryProjects: memories stored under the old base-name key
// are re-keyed to their session's project identity, so the worktree finds
// them and the other api does not; memories of unknown sessions and
// already-migrated ones are left alone; a second run changes nothing.
func TestMigrateMemoryProjects(t *testing.T) {
	apiA, apiB, app, feature := repos(t)
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mem, err := memory.OpenEmbedded(ctx, filepath.Join(dir, "memory.db"), embedding.NewLexical(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	for _, d := range []string{apiA, apiB, app} {
		sess, err := st.CreateSession(ctx, storeNewSession(d))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := mem.AddMemories(ctx, sess.ID, filepath.Base(d), []memory.Memory{{Content: "legacy memory of " + d}}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.SetSessionStatus(ctx, sess.ID, coach.SessionCompleted); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := mem.AddMemories(ctx, "gone-session", "api", []memory.Memory{{Content: "orphan"}}); err != nil {
		t.Fatal(err)
	}
	n, err := MigrateMemoryProjects(ctx, mem, st)
	if err != nil || n != 3 {
		t.Fatalf("migrated %d, %v; want 3", n, err)
	}
	if n, err := MigrateMemoryProjects(ctx, mem, st); err != nil || n != 0 {
		t.Errorf("second run migrated %d, %v", n, err)
	}
	for dir, want := range map[string]string{feature: app, apiA: apiA, apiB: apiB} {
		rs, err := mem.ListMemories(ctx, ProjectName(coach.Session{ProjectDir: dir}))
		if err != nil || len(rs) != 1 || rs[0].Content != "legacy memory of "+want {
			t.Errorf("%s lists %+v (%v), want the memory of %s", dir, rs, err, want)
		}
	}
	if rs, _ := mem.ListMemories(ctx, "api"); len(rs) != 1 || rs[0].Content != "orphan" {
		t.Errorf("orphan memory: %+v", rs)
	}
}

func storeNewSession(dir string) store.NewSession { return store.NewSession{ProjectDir: dir} }
