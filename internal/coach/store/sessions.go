package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/marker"
	"github.com/paige-dev/paige/internal/redact"
	"github.com/paige-dev/paige/internal/sqlite"
)

// NewSession is the input of [Store.CreateSession]. ProjectDir is required;
// IssueNumber nil means the session has no GitHub issue.
type NewSession struct {
	ProjectDir  string
	IssueNumber *int
	IssueTitle  string
}

// SessionFilter narrows [Store.Sessions]. Zero fields do not filter; Limit 0
// means no limit.
type SessionFilter struct {
	Status coach.SessionStatus
	Limit  int
}

const sessionCols = `id, project_dir, issue_number, issue_title, status, started_at, ended_at`

// CreateSession stores a new session with status active and started_at now
// (scenario 2.3), its coaching marker written first. The issue title is redacted ([redact.String]) before it
// is stored.
func (s *Store) CreateSession(ctx context.Context, in NewSession) (coach.Session, error) {
	return update(ctx, s, func(tx *Tx) (coach.Session, error) { return tx.CreateSession(ctx, in) })
}

// CreateSession is [Store.CreateSession] inside a transaction.
func (tx *Tx) CreateSession(ctx context.Context, in NewSession) (coach.Session, error) {
	if strings.TrimSpace(in.ProjectDir) == "" {
		return coach.Session{}, invalidf("session: project_dir is empty")
	}
	sess := coach.Session{
		ID: tx.s.NewID(), ProjectDir: in.ProjectDir, IssueNumber: in.IssueNumber,
		IssueTitle: redact.String(in.IssueTitle), Status: coach.SessionActive, StartedAt: tx.s.now(),
	}
	if err := tx.s.writeMarker(sess); err != nil { // before the commit: a marker may be stale, never missing
		return coach.Session{}, err
	}
	_, err := tx.tx.ExecContext(ctx, `INSERT INTO sessions (`+sessionCols+`) VALUES (?, ?, ?, ?, ?, ?, NULL)`,
		sess.ID, sess.ProjectDir, nullInt(sess.IssueNumber), nullString(sess.IssueTitle), sess.Status,
		sqlite.FormatTime(sess.StartedAt))
	return sess, insertErr("session", "", err)
}

// Session returns the session with id, or an error wrapping [ErrNotFound].
func (s *Store) Session(ctx context.Context, id string) (sess coach.Session, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		sess, err = findSession(ctx, tx, id)
		return err
	})
	return sess, err
}

// ActiveSession returns the most recently started session whose status is
// active (D27: tools act on the current active session), or an error
// wrapping [ErrNotFound] when there is none.
func (s *Store) ActiveSession(ctx context.Context) (sess coach.Session, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		list, err := findSessions(ctx, tx, SessionFilter{Status: coach.SessionActive, Limit: 1})
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return fmt.Errorf("active session: %w", ErrNotFound)
		}
		sess = list[0]
		return nil
	})
	return sess, err
}

// Sessions lists sessions, most recently started first.
func (s *Store) Sessions(ctx context.Context, f SessionFilter) (list []coach.Session, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		list, err = findSessions(ctx, tx, f)
		return err
	})
	return list, err
}

// SetSessionStatus changes a session's status and returns the updated row.
// Moving to completed or abandoned sets ended_at to now (kept if the session
// had already ended) and makes a wrap-up that has not run pending; moving
// back to active (resume) clears ended_at and the pending wrap-up. Setting
// the status a session already has changes nothing. Resuming writes the
// session's coaching marker before the commit, ending removes it after.
func (s *Store) SetSessionStatus(ctx context.Context, id string, status coach.SessionStatus) (coach.Session, error) {
	return update(ctx, s, func(tx *Tx) (coach.Session, error) { return tx.SetSessionStatus(ctx, id, status) })
}

// SetSessionStatus is [Store.SetSessionStatus] inside a transaction.
func (tx *Tx) SetSessionStatus(ctx context.Context, id string, status coach.SessionStatus) (coach.Session, error) {
	if !status.Valid() {
		return coach.Session{}, invalidf("session status %q", status)
	}
	sess, err := findSession(ctx, tx.tx, id)
	if err != nil || sess.Status == status {
		return sess, err
	}
	sess.Status = status
	if status == coach.SessionActive {
		sess.EndedAt = nil
		if err := tx.s.writeMarker(sess); err != nil { // before the commit, as for a new session
			return coach.Session{}, err
		}
	} else {
		if sess.EndedAt == nil {
			t := tx.s.now()
			sess.EndedAt = &t
		}
		tx.afterCommit = append(tx.afterCommit, func() { _ = marker.Remove(tx.s.dataDir, id) }) // a stale marker costs one hook run
	}
	// Ending a session leaves its wrap-up pending; resuming it before the
	// wrap-up ran makes it an active session again.
	_, err = tx.tx.ExecContext(ctx, `UPDATE sessions SET status = ?, ended_at = ?,
		wrapup_status = CASE
			WHEN ? != 'active' AND wrapup_status = 'none' THEN 'pending'
			WHEN ? = 'active' AND wrapup_status = 'pending' THEN 'none'
			ELSE wrapup_status END
		WHERE id = ?`,
		status, formatNullTime(sess.EndedAt), status, status, id)
	return sess, err
}

// DeleteSession removes a session and, by cascade, everything that belongs
// to it, and then its coaching marker. Deleting a missing session returns
// an error wrapping [ErrNotFound].
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	return s.Update(ctx, func(tx *Tx) error {
		tx.afterCommit = append(tx.afterCommit, func() { _ = marker.Remove(s.dataDir, id) })
		return deleteRow(ctx, tx.tx, "sessions", "session", id)
	})
}

func deleteRow(ctx context.Context, q querier, table, what, id string) error {
	return execFound(ctx, q, what, id, `DELETE FROM `+table+` WHERE id = ?`, id)
}

func findSession(ctx context.Context, q querier, id string) (coach.Session, error) {
	row := q.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, id)
	sess, err := scanSession(row)
	if errors.Is(err, sql.ErrNoRows) {
		return sess, notFound("session", id)
	}
	return sess, err
}

func findSessions(ctx context.Context, q querier, f SessionFilter) ([]coach.Session, error) {
	query := `SELECT ` + sessionCols + ` FROM sessions`
	var args []any
	if f.Status != "" {
		query += ` WHERE status = ?`
		args = append(args, f.Status)
	}
	query += ` ORDER BY started_at DESC, id DESC`
	if f.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	return QueryAll(ctx, q, scanSession, query, args...)
}

func scanSession(r Scanner) (coach.Session, error) {
	var (
		sess    coach.Session
		issue   sql.NullInt64
		title   sql.NullString
		started string
		ended   sql.NullString
	)
	if err := r.Scan(&sess.ID, &sess.ProjectDir, &issue, &title, &sess.Status, &started, &ended); err != nil {
		return sess, err
	}
	sess.IssueNumber = intPtr(issue)
	sess.IssueTitle = title.String
	var err error
	if sess.StartedAt, err = parseTime(started); err != nil {
		return sess, err
	}
	sess.EndedAt, err = parseNullTime(ended)
	return sess, err
}
