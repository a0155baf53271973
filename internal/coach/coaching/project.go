package coaching

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/project"
)

// ProjectKey is the project identity of dir (internal/project.ID: the git
// common directory, so every worktree of a repository is one project; the
// absolute path outside git). A directory that can no longer be resolved
// (deleted) keys by its cleaned absolute path.
func ProjectKey(dir string) string {
	if id, err := project.ID(dir); err == nil {
		return id
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return filepath.Clean(dir)
}

// LegacyProject reports the project identity a memory stored under the old
// key (a directory's base name) belongs to: the [ProjectKey] of its
// session's project directory, when sessionDir knows the session and the
// directory's base name is the stored key. Memories already keyed by an
// identity (an absolute path), without a project, or of an unknown session
// are left alone (ok false); they stay readable through cross-project
// recall, the default.
func LegacyProject(m memory.Metadata, sessionDir func(sessionID string) (string, bool)) (string, bool) {
	if m.Project == "" || filepath.IsAbs(m.Project) {
		return "", false
	}
	dir, ok := sessionDir(m.SessionID)
	if !ok || dir == "" || filepath.Base(filepath.Clean(dir)) != m.Project {
		return "", false
	}
	return ProjectKey(dir), true
}

// SessionLookup finds a session by id; *store.Store implements it.
type SessionLookup interface {
	Session(ctx context.Context, id string) (coach.Session, error)
}

// MigrateMemoryProjects re-keys memories stored under a base-name project
// to their project identity ([LegacyProject]), looking sessions up in st,
// and returns how many changed. It is idempotent.
func MigrateMemoryProjects(ctx context.Context, ed memory.Editor, st SessionLookup) (int, error) {
	n, err := ed.SetProjects(ctx, func(m memory.Metadata) (string, bool) {
		return LegacyProject(m, func(id string) (string, bool) {
			sess, err := st.Session(ctx, id)
			return sess.ProjectDir, err == nil
		})
	})
	if err != nil {
		return 0, fmt.Errorf("migrate memory projects: %w", err)
	}
	return n, nil
}
