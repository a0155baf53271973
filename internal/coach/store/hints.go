package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/sqlite"
)

// CreatePhaseHint stores a file or line hint of a phase (scenario 2.5). ID,
// if empty, is generated. A line hint needs StartLine; EndLine defaults to
// StartLine. A missing phase yields an error wrapping [ErrNotFound].
func (s *Store) CreatePhaseHint(ctx context.Context, h coach.PhaseHint) (coach.PhaseHint, error) {
	return update(ctx, s, func(tx *Tx) (coach.PhaseHint, error) { return tx.CreatePhaseHint(ctx, h) })
}

// CreatePhaseHint is [Store.CreatePhaseHint] inside a transaction.
func (tx *Tx) CreatePhaseHint(ctx context.Context, h coach.PhaseHint) (coach.PhaseHint, error) {
	if h.ID == "" {
		h.ID = tx.s.NewID()
	}
	switch h.Type {
	case coach.HintTypeFile:
	case coach.HintTypeLine:
		if h.StartLine == nil {
			return h, invalidf("line hint for %q has no start line", h.Path)
		}
		if h.EndLine == nil {
			end := *h.StartLine
			h.EndLine = &end
		}
	default:
		return h, invalidf("hint type %q (want file or line)", h.Type)
	}
	var hover any
	if h.HoverText != nil {
		hover = *h.HoverText
	}
	_, err := tx.tx.ExecContext(ctx, `INSERT INTO phase_hints (id, phase_id, type, path, start_line, end_line, style, hover_text)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		h.ID, h.PhaseID, h.Type, h.Path, nullInt(h.StartLine), nullInt(h.EndLine), h.Style, hover)
	return h, insertErr("phase hint", "phase "+h.PhaseID, err)
}

// PhaseHints returns the hints of a phase in insertion order; a non-empty
// typ keeps only hints of that type.
func (s *Store) PhaseHints(ctx context.Context, phaseID string, typ coach.HintType) (list []coach.PhaseHint, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		query := `SELECT id, phase_id, type, path, start_line, end_line, style, hover_text FROM phase_hints WHERE phase_id = ?`
		args := []any{phaseID}
		if typ != "" {
			query += ` AND type = ?`
			args = append(args, typ)
		}
		var err error
		list, err = QueryAll(ctx, tx, scanPhaseHint, query+` ORDER BY rowid`, args...)
		return err
	})
	return list, err
}

// AddProgressEvent records a phase-scoped event (hint_used, hint_escalated,
// review_requested, review_passed, …; scenario 2.10). data may be nil; when
// not nil it must be valid JSON. A missing phase yields an error wrapping
// [ErrNotFound].
func (s *Store) AddProgressEvent(ctx context.Context, phaseID, eventType string, data json.RawMessage) (coach.ProgressEvent, error) {
	return update(ctx, s, func(tx *Tx) (coach.ProgressEvent, error) { return tx.AddProgressEvent(ctx, phaseID, eventType, data) })
}

// AddProgressEvent is [Store.AddProgressEvent] inside a transaction.
func (tx *Tx) AddProgressEvent(ctx context.Context, phaseID, eventType string, data json.RawMessage) (coach.ProgressEvent, error) {
	ev := coach.ProgressEvent{ID: tx.s.NewID(), PhaseID: phaseID, EventType: eventType, Data: data, CreatedAt: tx.s.now()}
	if eventType == "" {
		return ev, invalidf("progress event without a type")
	}
	d, err := jsonArg(data)
	if err != nil {
		return ev, err
	}
	_, err = tx.tx.ExecContext(ctx, `INSERT INTO progress_events (id, phase_id, event_type, data, created_at) VALUES (?, ?, ?, ?, ?)`,
		ev.ID, ev.PhaseID, ev.EventType, d, sqlite.FormatTime(ev.CreatedAt))
	return ev, insertErr("progress event", "phase "+phaseID, err)
}

// ProgressEvents returns the events of a phase in chronological order.
func (s *Store) ProgressEvents(ctx context.Context, phaseID string) (list []coach.ProgressEvent, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		var err error
		list, err = QueryAll(ctx, tx, scanProgressEvent, `SELECT id, phase_id, event_type, data, created_at FROM progress_events
			WHERE phase_id = ? ORDER BY created_at, id`, phaseID)
		return err
	})
	return list, err
}

// jsonArg validates optional JSON and returns the SQL argument (NULL for nil
// or the JSON literal null).
func jsonArg(data json.RawMessage) (any, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	if !json.Valid(data) {
		return nil, invalidf("data is not valid JSON")
	}
	return string(data), nil
}

func scanPhaseHint(r Scanner) (h coach.PhaseHint, err error) {
	var (
		start, end sql.NullInt64
		hover      sql.NullString
	)
	if err = r.Scan(&h.ID, &h.PhaseID, &h.Type, &h.Path, &start, &end, &h.Style, &hover); err != nil {
		return h, err
	}
	h.StartLine, h.EndLine = intPtr(start), intPtr(end)
	if hover.Valid {
		h.HoverText = &hover.String
	}
	return h, nil
}

func scanProgressEvent(r Scanner) (ev coach.ProgressEvent, err error) {
	var (
		data    sql.NullString
		created string
	)
	if err = r.Scan(&ev.ID, &ev.PhaseID, &ev.EventType, &data, &created); err != nil {
		return ev, err
	}
	if data.Valid {
		ev.Data = json.RawMessage(data.String)
	}
	ev.CreatedAt, err = parseTime(created)
	return ev, err
}
