package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/redact"
	"github.com/paige-dev/paige/internal/sqlite"
)

// InsertAction appends one row to action_log (FR-041). sessionID must name
// an existing session (else an error wrapping [ErrNotFound]), or be empty
// for a type that may be logged outside a session (coach.ActionType's
// Sessionless; the row's session_id is NULL), else [ErrInvalid]; t must be
// one of the known action types (else [ErrInvalid]); data may be nil and must
// otherwise be valid JSON. The data is redacted first ([redact.JSON]), and
// the returned Action carries what was stored, so neither the row nor the
// event published from it holds a secret. Most callers use
// actionlog.Logger, which also publishes the action on the event bus.
func (s *Store) InsertAction(ctx context.Context, sessionID string, t coach.ActionType, data json.RawMessage) (coach.Action, error) {
	return update(ctx, s, func(tx *Tx) (coach.Action, error) { return tx.InsertAction(ctx, sessionID, t, data) })
}

// InsertAction is [Store.InsertAction] inside a transaction.
func (tx *Tx) InsertAction(ctx context.Context, sessionID string, t coach.ActionType, data json.RawMessage) (coach.Action, error) {
	data = redact.JSON(data)
	a := coach.Action{ID: tx.s.NewID(), SessionID: sessionID, Type: t, Data: data, CreatedAt: tx.s.now()}
	if !t.Valid() {
		return a, invalidf("unknown action type %q", t)
	}
	if sessionID == "" && !t.Sessionless() {
		return a, invalidf("action %s without a session", t)
	}
	d, err := jsonArg(data)
	if err != nil {
		return a, err
	}
	if d == nil {
		a.Data = nil
	}
	args := []any{a.ID, nullString(a.SessionID), a.Type, d, sqlite.FormatTime(a.CreatedAt)}
	if st := tx.s.insertAction(ctx); st != nil {
		_, err = tx.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	} else {
		_, err = tx.tx.ExecContext(ctx, insertActionSQL, args...)
	}
	return a, insertErr("action", "session "+sessionID, err)
}

const insertActionSQL = `INSERT INTO action_log (id, session_id, action_type, data, created_at) VALUES (?, ?, ?, ?, ?)`

// insertAction returns the action insert prepared once per Store (every
// MCP tool call logs one, so parsing the SQL each time shows), or nil if
// it could not be prepared; database/sql re-prepares it on each pooled
// connection it meets and closes it with the Store.
func (s *Store) insertAction(ctx context.Context) *sql.Stmt {
	s.insertActionOnce.Do(func() {
		st, err := s.db.PrepareContext(context.WithoutCancel(ctx), insertActionSQL)
		if err == nil {
			s.insertActionStmt = st
		}
	})
	return s.insertActionStmt
}

// ActionQuery selects rows of action_log for [Store.RecentActions].
// SessionID is required; Types (any of) and Since (created at or after) filter
// when set; Limit keeps the newest Limit rows (0: all).
type ActionQuery struct {
	SessionID string
	Types     []coach.ActionType
	Since     time.Time
	Limit     int
}

// RecentActions returns the newest actions matching q in chronological
// order (oldest first), the shape the Observer's context snapshot needs
// (scenario 4.5).
func (s *Store) RecentActions(ctx context.Context, q ActionQuery) (list []coach.Action, err error) {
	if q.SessionID == "" {
		return nil, invalidf("action query without a session")
	}
	query := `SELECT id, session_id, action_type, data, created_at FROM action_log WHERE session_id = ?`
	args := []any{q.SessionID}
	if len(q.Types) > 0 {
		query += ` AND action_type IN (?` + strings.Repeat(`, ?`, len(q.Types)-1) + `)`
		for _, t := range q.Types {
			args = append(args, t)
		}
	}
	if !q.Since.IsZero() {
		query += ` AND created_at >= ?`
		args = append(args, sqlite.FormatTime(q.Since))
	}
	query += ` ORDER BY created_at DESC, id DESC`
	if q.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, q.Limit)
	}
	err = s.read(ctx, func(tx *sql.Tx) error {
		list, err = findActions(ctx, tx, query, args...)
		return err
	})
	for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
		list[i], list[j] = list[j], list[i]
	}
	return list, err
}

// LastAction returns the newest action of type t in a session (for
// "time since last save"), or an error wrapping [ErrNotFound].
func (s *Store) LastAction(ctx context.Context, sessionID string, t coach.ActionType) (coach.Action, error) {
	list, err := s.RecentActions(ctx, ActionQuery{SessionID: sessionID, Types: []coach.ActionType{t}, Limit: 1})
	if err != nil {
		return coach.Action{}, err
	}
	if len(list) == 0 {
		return coach.Action{}, notFound("action "+string(t)+" of session", sessionID)
	}
	return list[0], nil
}

// CountActions counts a session's actions of type t created at or after
// since (zero since: all). An empty sessionID counts across sessions,
// actions logged outside any session included.
func (s *Store) CountActions(ctx context.Context, sessionID string, t coach.ActionType, since time.Time) (n int, err error) {
	query := `SELECT count(*) FROM action_log WHERE action_type = ? AND created_at >= ?`
	args := []any{t, sqlite.FormatTime(since)}
	if sessionID != "" {
		query += ` AND session_id = ?`
		args = append(args, sessionID)
	}
	err = s.read(ctx, func(tx *sql.Tx) error { return tx.QueryRowContext(ctx, query, args...).Scan(&n) })
	return n, err
}

func findActions(ctx context.Context, q querier, query string, args ...any) ([]coach.Action, error) {
	return QueryAll(ctx, q, scanAction, query, args...)
}

// scanAction reads one action_log row; a NULL session_id (an action
// logged outside a session) reads as "".
func scanAction(r Scanner) (a coach.Action, err error) {
	var (
		session sql.NullString
		data    sql.NullString
		created string
	)
	if err = r.Scan(&a.ID, &session, &a.Type, &data, &created); err != nil {
		return a, err
	}
	a.SessionID = session.String
	if data.Valid {
		a.Data = json.RawMessage(data.String)
	}
	a.CreatedAt, err = parseTime(created)
	return a, err
}

// InsertAPICall appends one row to api_call_log (FR-042, scenario 4.4).
// Zero ID and CreatedAt are filled in (UUID v7, now). An empty SessionID is
// stored as NULL (calls outside a session); a SessionID that names no
// session is also stored as NULL rather than losing the record. Failed
// calls carry LatencyMs -1 and zero tokens and cost (EC-19). CallType and
// Model are required ([ErrInvalid]). The row holds no prompt text: only
// InputHash, a truncated SHA-256 of the user prompt (llm.InputHash), so
// there is nothing to redact.
//
// actionlog.Logger.LogAPICall maps an llm.CallRecord onto it.
func (s *Store) InsertAPICall(ctx context.Context, c coach.APICall) error {
	if c.ID == "" {
		c.ID = s.NewID()
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	if c.CallType == "" || c.Model == "" {
		return invalidf("api call needs call_type and model")
	}
	var cost any = c.CostEstimate
	if c.CostUnknown {
		cost = nil
	}
	insert := func(session any) error {
		return s.Update(ctx, func(tx *Tx) error {
			_, err := tx.tx.ExecContext(ctx, `INSERT INTO api_call_log (id, session_id, call_type, model, input_hash, latency_ms,
				input_tokens, output_tokens, cost_estimate, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				c.ID, session, c.CallType, c.Model, c.InputHash, c.LatencyMs, c.InputTokens, c.OutputTokens,
				cost, sqlite.FormatTime(c.CreatedAt))
			return insertErr("api call", "session "+c.SessionID, err)
		})
	}
	err := insert(nullString(c.SessionID))
	if errors.Is(err, ErrNotFound) {
		err = insert(nil)
	}
	return err
}
