package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/redact"
	"github.com/paige-dev/paige/internal/sqlite"
)

// Statements of every turn (see hotQueries).
const (
	qUpdateProgress = `UPDATE sessions SET state_json = ?, total_tokens_used = ? WHERE id = ?`
	qDeleteMessages = `DELETE FROM session_messages WHERE session_id = ? AND seq >= ?`
	qInsertMessage  = `INSERT INTO session_messages (session_id, seq, body) VALUES (?, ?, ?)`
)

const sessionCols = `id, problem, status, created_at, resolved_at, total_tokens_used, state_json, spec_path, title`

// CreateSession inserts s with its messages, the problem's and the
// messages' secrets redacted (internal/redact). A zero CreatedAt is set to
// now.
func (s *Store) CreateSession(ctx context.Context, sess core.Session) error {
	if sess.CreatedAt.IsZero() {
		sess.CreatedAt = s.now()
	}
	if sess.Status == "" {
		sess.Status = core.StatusCreated
	}
	state, err := json.Marshal(sess.State)
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	msgs, err := core.SplitMessages(sess.Messages)
	if err != nil {
		return fmt.Errorf("create session: messages: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	defer rollback(tx)
	if _, err = tx.ExecContext(ctx, s.q(`INSERT INTO sessions (`+sessionCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		sess.ID, redact.String(sess.Problem), string(sess.Status), s.ts(sess.CreatedAt), s.tsPtr(sess.ResolvedAt),
		sess.TotalTokensUsed, string(state), sess.SpecPath, redact.String(sess.Title)); err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	if err := s.writeMessages(ctx, tx, sess.ID, msgs, 0); err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return tx.Commit()
}

type scanner = sqlite.Scanner

// scanSession scans sessionCols, then extra destinations.
func scanSession(row scanner, extra ...any) (core.Session, error) {
	var (
		sess   core.Session
		status string
		state  []byte
	)
	dest := append([]any{&sess.ID, &sess.Problem, &status, dbTime{&sess.CreatedAt}, nullTime{&sess.ResolvedAt},
		&sess.TotalTokensUsed, &state, &sess.SpecPath, &sess.Title}, extra...)
	if err := row.Scan(dest...); err != nil {
		return sess, err
	}
	sess.Status = core.SessionStatus(status)
	if len(state) > 0 {
		if err := json.Unmarshal(state, &sess.State); err != nil {
			return sess, fmt.Errorf("decode state of session %s: %w", sess.ID, err)
		}
	}
	return sess, nil
}

// GetSession returns the session with id and its messages, or ErrNotFound.
func (s *Store) GetSession(ctx context.Context, id string) (core.Session, error) {
	if !validID(id) {
		return core.Session{}, notFound("session", id)
	}
	sess, err := scanSession(s.db.QueryRowContext(ctx, s.q(`SELECT `+sessionCols+` FROM sessions WHERE id = ?`), id))
	if isNoRows(err) {
		return sess, notFound("session", id)
	}
	if err != nil {
		return sess, fmt.Errorf("get session: %w", err)
	}
	msgs, err := sqlite.QueryAll(ctx, s.db, "get session messages", s.q(`SELECT body FROM session_messages WHERE session_id = ? ORDER BY seq`),
		[]any{id}, func(row scanner) (json.RawMessage, error) {
			var b []byte
			err := row.Scan(&b)
			return b, err
		})
	if err != nil {
		return sess, err
	}
	sess.Messages = core.JoinMessages(msgs)
	return sess, nil
}

// lastActivity is a session's latest tool call, or its creation.
const lastActivity = `COALESCE((SELECT MAX(tc.created_at) FROM tool_calls tc WHERE tc.session_id = sessions.id), sessions.created_at)`

// ListSessions returns sessions by last activity, newest first, paged and
// optionally filtered by status and problem text. Messages are not loaded
// (nil) to keep listings light.
func (s *Store) ListSessions(ctx context.Context, o core.ListOptions) ([]core.Session, error) {
	if o.Limit <= 0 {
		o.Limit = 10
	}
	where, args := listWhere(o)
	query := `SELECT ` + sessionCols + `, ` + lastActivity + ` AS last_activity FROM sessions` + where +
		` ORDER BY last_activity DESC, id DESC LIMIT ? OFFSET ?`
	args = append(args, o.Limit, max(o.Offset, 0))
	return sqlite.QueryAll(ctx, s.db, "list sessions", s.q(query), args, func(row scanner) (core.Session, error) {
		var last time.Time
		sess, err := scanSession(row, dbTime{&last})
		sess.LastActivityAt = last
		return sess, err
	})
}

// CountSessions counts the sessions o's status and query keep.
func (s *Store) CountSessions(ctx context.Context, o core.ListOptions) (int, error) {
	where, args := listWhere(o)
	var n int
	if err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM sessions`+where), args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count sessions: %w", err)
	}
	return n, nil
}

// likeEscaper makes a search text a literal LIKE pattern (escape \).
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// listWhere is the WHERE clause of o's status and query filters.
func listWhere(o core.ListOptions) (string, []any) {
	var conds []string
	var args []any
	if o.Status != "" {
		conds = append(conds, `status = ?`)
		args = append(args, string(o.Status))
	}
	if o.Query != "" {
		conds = append(conds, `LOWER(problem) LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscaper.Replace(strings.ToLower(o.Query))+"%")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return ` WHERE ` + strings.Join(conds, ` AND `), args
}

// DeleteSession deletes the session with its rounds, premises and tool calls.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	if !validID(id) {
		return notFound("session", id)
	}
	res, err := s.db.ExecContext(ctx, s.q(`DELETE FROM sessions WHERE id = ?`), id)
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return affected(res, "session", id)
}

// UpdateStatus sets the status and, when non-nil, resolved_at.
func (s *Store) UpdateStatus(ctx context.Context, id string, status core.SessionStatus, resolvedAt *time.Time) error {
	if !validID(id) {
		return notFound("session", id)
	}
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE sessions SET status = ?, resolved_at = COALESCE(?, resolved_at) WHERE id = ?`),
		string(status), s.tsPtr(resolvedAt), id)
	if err != nil {
		return fmt.Errorf("update status: %w", err)
	}
	return affected(res, "session", id)
}

// SetStatusIf moves the session from one status to another, atomically.
func (s *Store) SetStatusIf(ctx context.Context, id string, from, to core.SessionStatus) (bool, error) {
	if !validID(id) {
		return false, notFound("session", id)
	}
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE sessions SET status = ? WHERE id = ? AND status = ?`), string(to), id, string(from))
	if err != nil {
		return false, fmt.Errorf("set status: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SaveProgress writes one turn in one transaction: state, token total,
// messages p.Messages[p.From:] (stored rows beyond them are removed) and the
// turn's tool calls, so a turn is persisted whole or not at all.
func (s *Store) SaveProgress(ctx context.Context, id string, p core.Progress) error {
	if !validID(id) {
		return notFound("session", id)
	}
	st, err := json.Marshal(p.State)
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save progress: %w", err)
	}
	defer rollback(tx)
	res, err := s.txExec(ctx, tx, qUpdateProgress, string(st), p.TotalTokens, id)
	if err != nil {
		return fmt.Errorf("save progress: %w", err)
	}
	if err := affected(res, "session", id); err != nil {
		return err
	}
	if err := s.writeMessages(ctx, tx, id, p.Messages, p.From); err != nil {
		return fmt.Errorf("save progress: %w", err)
	}
	for _, tc := range p.Calls {
		tc.SessionID = id
		if err := s.insertToolCall(ctx, func(ctx context.Context, q string, args ...any) (sql.Result, error) {
			return s.txExec(ctx, tx, q, args...)
		}, tc); err != nil {
			return fmt.Errorf("save progress: %w", err)
		}
	}
	return tx.Commit()
}

// writeMessages stores msgs[from:] at their positions, their secrets
// redacted (internal/redact), and drops stored messages beyond len(msgs).
func (s *Store) writeMessages(ctx context.Context, tx *sql.Tx, id string, msgs []json.RawMessage, from int) error {
	from = min(max(from, 0), len(msgs))
	if _, err := s.txExec(ctx, tx, qDeleteMessages, id, from); err != nil {
		return err
	}
	for i := from; i < len(msgs); i++ {
		if !json.Valid(msgs[i]) {
			return fmt.Errorf("message %d is not valid JSON", i)
		}
		if _, err := s.txExec(ctx, tx, qInsertMessage, id, i, string(redact.JSON(msgs[i]))); err != nil {
			return err
		}
	}
	return nil
}

// SetSpecPath records the final spec's file path.
func (s *Store) SetSpecPath(ctx context.Context, id, path string) error {
	if !validID(id) {
		return notFound("session", id)
	}
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE sessions SET spec_path = ? WHERE id = ?`), path, id)
	if err != nil {
		return fmt.Errorf("set spec path: %w", err)
	}
	return affected(res, "session", id)
}

// RenameSession sets the session's name; empty lets its problem name it.
func (s *Store) RenameSession(ctx context.Context, id, title string) error {
	if !validID(id) {
		return notFound("session", id)
	}
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE sessions SET title = ? WHERE id = ?`), redact.String(title), id)
	if err != nil {
		return fmt.Errorf("rename session: %w", err)
	}
	return affected(res, "session", id)
}
