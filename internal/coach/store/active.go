package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/marker"
	"github.com/paige-dev/paige/internal/sqlite"
)

// ProjectCoaching is what other processes (the Claude Code hooks, `paige
// session`, `paige doctor`) read about the coaching session active in a
// project: the session, when anything last happened in it, and its plan's
// current phase.
type ProjectCoaching struct {
	Session coach.Session
	// LastActivity is the latest of the session's start and its newest
	// action_log row: the clock the idle limit runs on.
	LastActivity time.Time
	// Phase is the plan's current phase (the first active one, else the
	// first pending one); nil before the pipeline made a plan or once
	// every phase is complete.
	Phase *coach.Phase
	// Phases is how many phases the plan has, Completed how many are done.
	Phases, Completed int
}

// IdleFor is how long nothing has happened in the session at now.
func (c ProjectCoaching) IdleFor(now time.Time) time.Duration { return now.Sub(c.LastActivity) }

// CoachingActive reports whether a coaching session is active for cwd in
// the coach database of dataDir ([FindCoaching] found one).
func CoachingActive(ctx context.Context, dataDir, cwd string) (bool, error) {
	_, ok, err := FindCoaching(ctx, dataDir, cwd)
	return ok, err
}

// FindCoaching returns the coaching session active for cwd in the coach
// database of dataDir: the most recently started session with status
// active whose project directory is cwd or one of its parents (any active
// session when cwd is empty). It is for other processes (the Claude Code
// hooks): the database is opened read-only with a short busy timeout and
// never created or migrated; a missing file or a database without the
// sessions table means no session. Errors (a corrupt or locked file) are
// returned with ok false.
func FindCoaching(ctx context.Context, dataDir, cwd string) (c ProjectCoaching, ok bool, err error) {
	err = readActive(ctx, dataDir, func(db *sql.DB, list []coach.Session) error {
		for _, s := range list {
			if cwd == "" || s.ProjectDir == "" || marker.Within(cwd, s.ProjectDir) {
				c, err = describeCoaching(ctx, db, s)
				ok = err == nil
				return err
			}
		}
		return nil
	})
	return c, ok, err
}

// PruneMarkers removes the coaching markers of dataDir whose session the
// coach database does not hold as active ([marker.Prune]), reading the
// database as [FindCoaching] does: `paige hook coaching-state` runs it, so a
// stale marker costs the SessionStart hook one run of paige, not one each
// time.
func PruneMarkers(ctx context.Context, dataDir string) error {
	return readActive(ctx, dataDir, func(_ *sql.DB, list []coach.Session) error {
		ids := make(map[string]bool, len(list))
		for _, s := range list {
			ids[s.ID] = true
		}
		return marker.Prune(dataDir, func(id string) bool { return ids[id] }, time.Now())
	})
}

// readActive opens the coach database of dataDir read-only (never creating
// or migrating it) and calls f with the sessions whose status is active,
// most recently started first: none when the file or its sessions table
// does not exist.
func readActive(ctx context.Context, dataDir string, f func(*sql.DB, []coach.Session) error) error {
	path := filepath.Join(dataDir, FileName)
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return f(nil, nil)
		}
		return err
	}
	db, err := sqlite.OpenReadOnly(path)
	if err != nil {
		return err
	}
	defer db.Close()
	var tables int
	if err := db.QueryRowContext(ctx,
		`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sessions'`).Scan(&tables); err != nil {
		return fmt.Errorf("query coaching sessions: %w", err)
	}
	if tables == 0 {
		return f(db, nil)
	}
	list, err := findSessions(ctx, db, SessionFilter{Status: coach.SessionActive})
	if err != nil {
		return fmt.Errorf("query coaching sessions: %w", err)
	}
	return f(db, list)
}

// describeCoaching reads the session's last activity and current phase.
func describeCoaching(ctx context.Context, db *sql.DB, s coach.Session) (ProjectCoaching, error) {
	c := ProjectCoaching{Session: s, LastActivity: s.StartedAt}
	var last sql.NullString
	if err := db.QueryRowContext(ctx, `SELECT max(created_at) FROM action_log WHERE session_id = ?`, s.ID).Scan(&last); err != nil {
		return c, fmt.Errorf("query the session's last action: %w", err)
	}
	if last.Valid {
		if t, err := parseTime(last.String); err == nil && t.After(c.LastActivity) {
			c.LastActivity = t
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT `+phaseCols+` FROM phases
		WHERE plan_id = (SELECT id FROM plans WHERE session_id = ? ORDER BY created_at DESC, id DESC LIMIT 1)
		ORDER BY number`, s.ID)
	if err != nil {
		return c, fmt.Errorf("query the session's phases: %w", err)
	}
	defer rows.Close()
	var pending *coach.Phase
	for rows.Next() {
		p, err := scanPhase(rows)
		if err != nil {
			return c, fmt.Errorf("query the session's phases: %w", err)
		}
		c.Phases++
		switch {
		case p.Status == coach.PhaseComplete:
			c.Completed++
		case p.Status == coach.PhaseActive && c.Phase == nil:
			c.Phase = &p
		case pending == nil:
			pending = &p
		}
	}
	if c.Phase == nil {
		c.Phase = pending
	}
	return c, rows.Err()
}
