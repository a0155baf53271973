package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/sqlite"
)

// CoachingActive reports whether a coaching session is active for cwd in
// the coach database of dataDir: a session with status active whose project
// directory is cwd or one of its parents (any active session when cwd is
// empty). It is for other processes (the Claude Code hooks): the database is
// opened read-only with a short busy timeout and never created or migrated;
// a missing file or a database without the sessions table means no session.
// Errors (a corrupt or locked file) are returned with false.
func CoachingActive(ctx context.Context, dataDir, cwd string) (bool, error) {
	path := filepath.Join(dataDir, FileName)
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false, nil
		}
		return false, err
	}
	db, err := sqlite.OpenReadOnly(path)
	if err != nil {
		return false, err
	}
	defer db.Close()
	var tables int
	if err := db.QueryRowContext(ctx,
		`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sessions'`).Scan(&tables); err != nil {
		return false, fmt.Errorf("query coaching sessions: %w", err)
	}
	if tables == 0 {
		return false, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT project_dir FROM sessions WHERE status = ?`, coach.SessionActive)
	if err != nil {
		return false, fmt.Errorf("query coaching sessions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var dir sql.NullString
		if err := rows.Scan(&dir); err != nil {
			return false, fmt.Errorf("query coaching sessions: %w", err)
		}
		if cwd == "" || !dir.Valid || dir.String == "" || within(cwd, dir.String) {
			return true, nil
		}
	}
	return false, rows.Err()
}

// within reports whether path is dir or below it, also after resolving
// symbolic links (macOS's /var is /private/var).
func within(path, dir string) bool {
	if under(path, dir) {
		return true
	}
	rp, err1 := filepath.EvalSymlinks(path)
	rd, err2 := filepath.EvalSymlinks(dir)
	return err1 == nil && err2 == nil && under(rp, rd)
}

func under(path, dir string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
