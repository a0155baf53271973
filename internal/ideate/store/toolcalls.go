package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/sqlite"
)

// RecordToolCall stores one tool execution. Empty id and time are filled in;
// empty input or output become {}.
func (s *Store) RecordToolCall(ctx context.Context, tc core.ToolCall) error {
	exec := func(ctx context.Context, q string, args ...any) (sql.Result, error) {
		return s.db.ExecContext(ctx, s.q(q), args...)
	}
	if err := s.insertToolCall(ctx, exec, tc); err != nil {
		return fmt.Errorf("record tool call: %w", err)
	}
	return nil
}

const qInsertToolCall = `INSERT INTO tool_calls
	(id, session_id, tool_name, input_json, output_json, status, error_code, iteration, duration_ms, created_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// execFunc runs a statement written with ? placeholders.
type execFunc func(ctx context.Context, query string, args ...any) (sql.Result, error)

func (s *Store) insertToolCall(ctx context.Context, exec execFunc, tc core.ToolCall) error {
	if tc.ID == "" {
		tc.ID = NewID()
	}
	if tc.CreatedAt.IsZero() {
		tc.CreatedAt = s.now()
	}
	_, err := exec(ctx, qInsertToolCall,
		tc.ID, tc.SessionID, tc.ToolName, jsonText(tc.Input), jsonText(tc.Output), tc.Status, tc.ErrorCode,
		tc.Iteration, tc.DurationMs, s.ts(tc.CreatedAt))
	return err
}

// ListToolCalls returns a session's tool calls in the order they ran.
func (s *Store) ListToolCalls(ctx context.Context, sessionID string) ([]core.ToolCall, error) {
	if !validID(sessionID) {
		return nil, notFound("session", sessionID)
	}
	return sqlite.QueryAll(ctx, s.db, "list tool calls", s.q(`SELECT id, session_id, tool_name, input_json, output_json, status,
		error_code, iteration, duration_ms, created_at FROM tool_calls WHERE session_id = ? ORDER BY created_at, id`),
		[]any{sessionID}, func(row scanner) (core.ToolCall, error) {
			var tc core.ToolCall
			var in, outj []byte
			err := row.Scan(&tc.ID, &tc.SessionID, &tc.ToolName, &in, &outj, &tc.Status, &tc.ErrorCode,
				&tc.Iteration, &tc.DurationMs, dbTime{&tc.CreatedAt})
			tc.Input, tc.Output = json.RawMessage(in), json.RawMessage(outj)
			return tc, err
		})
}

// jsonText returns raw as text: {} when empty, and invalid JSON kept as a
// JSON string (a JSONB column would reject it; nothing is lost).
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	if !json.Valid(raw) {
		b, _ := json.Marshal(string(raw))
		return string(b)
	}
	return string(raw)
}
