package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/paige-dev/paige/internal/coach"
)

// WrapUpStatus is where a session's wrap-up stands (sessions.wrapup_status).
type WrapUpStatus string

// Wrap-up states. A session is WrapUpNone while active; ending it without
// a wrap-up makes it WrapUpPending; [Store.ClaimWrapUp] makes it
// WrapUpRunning; [Store.SetWrapUpStatus] WrapUpDone.
const (
	WrapUpNone    WrapUpStatus = "none"
	WrapUpPending WrapUpStatus = "pending"
	WrapUpRunning WrapUpStatus = "running"
	WrapUpDone    WrapUpStatus = "done"
)

// SessionWrapUp returns the wrap-up status of the session with id, or an
// error wrapping [ErrNotFound].
func (s *Store) SessionWrapUp(ctx context.Context, id string) (st WrapUpStatus, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT wrapup_status FROM sessions WHERE id = ?`, id).Scan(&st)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("session", id)
		}
		return err
	})
	return st, err
}

// ClaimWrapUp atomically moves the session's wrap-up from none or pending
// to running and reports whether this call did: of concurrent claims, one
// wins. A session already running or done is not claimed.
func (s *Store) ClaimWrapUp(ctx context.Context, id string) (claimed bool, err error) {
	err = s.Update(ctx, func(tx *Tx) error {
		res, err := tx.tx.ExecContext(ctx, `UPDATE sessions SET wrapup_status = 'running'
			WHERE id = ? AND wrapup_status IN ('none', 'pending')`, id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		claimed = n == 1
		return err
	})
	return claimed, err
}

// SetWrapUpStatus sets the session's wrap-up status (done after a wrap-up;
// pending to give a claim back).
func (s *Store) SetWrapUpStatus(ctx context.Context, id string, st WrapUpStatus) error {
	return s.Update(ctx, func(tx *Tx) error {
		return execFound(ctx, tx.tx, "session", id, `UPDATE sessions SET wrapup_status = ? WHERE id = ?`, st, id)
	})
}

// PendingWrapUps lists the ended sessions whose wrap-up is pending, or was
// running when a previous run of the server stopped (call it before any
// wrap-up of this run starts), oldest first.
func (s *Store) PendingWrapUps(ctx context.Context) (list []coach.Session, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		list, err = QueryAll(ctx, tx, scanSession, `SELECT `+sessionCols+` FROM sessions
			WHERE status != 'active' AND wrapup_status IN ('pending', 'running') ORDER BY started_at, id`)
		return err
	})
	return list, err
}
