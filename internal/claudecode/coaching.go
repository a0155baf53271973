package claudecode

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Mode values of PAIGE_MODE, which says when PreToolUse enforces read-only.
const (
	ModeAuto  = "auto"  // default: enforce while an active coaching session covers the cwd
	ModeCoach = "coach" // always enforce (the coaching session is assumed)
	ModeOff   = "off"   // never enforce
)

// DBFile is the coaching database's file name inside DATA_DIR.
const DBFile = "paige.db"

// ErrBadMode is returned by [ParseMode] for an unknown PAIGE_MODE.
var ErrBadMode = errors.New("claudecode: PAIGE_MODE must be auto, coach or off")

// ParseMode normalises a PAIGE_MODE value; empty means [ModeAuto].
func ParseMode(s string) (string, error) {
	switch m := strings.ToLower(strings.TrimSpace(s)); m {
	case "", ModeAuto:
		return ModeAuto, nil
	case ModeCoach, "coaching", "on":
		return ModeCoach, nil
	case ModeOff, "none":
		return ModeOff, nil
	}
	return ModeAuto, fmt.Errorf("%w, got %q", ErrBadMode, s)
}

// CoachingActive reports whether a Paige coaching session is active for cwd:
// a row of the coach's `sessions` table in dbPath with status 'active' whose
// project_dir is cwd or one of its parents (any active session when cwd is
// empty). The database is opened read-only with a short busy timeout and
// never created; a missing file or a missing table means no session. Errors
// (a corrupt or locked file) are returned with false.
func CoachingActive(ctx context.Context, dbPath, cwd string) (bool, error) {
	if _, err := os.Stat(dbPath); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false, nil
		}
		return false, err
	}
	db, err := OpenReadOnly(dbPath)
	if err != nil {
		return false, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT project_dir FROM sessions WHERE status = 'active'`)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return false, nil
		}
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

// OpenReadOnly opens the SQLite file at path read-only (mode=ro, query_only)
// with a 250 ms busy timeout. It never creates the file.
func OpenReadOnly(path string) (*sql.DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(250)")
	q.Add("_pragma", "query_only(1)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s read-only: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
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
