package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/sqlite"
)

// CreatePlan stores the raw plan text of a session. A missing session yields
// an error wrapping [ErrNotFound].
func (s *Store) CreatePlan(ctx context.Context, sessionID, rawPlanText string) (coach.Plan, error) {
	return update(ctx, s, func(tx *Tx) (coach.Plan, error) { return tx.CreatePlan(ctx, sessionID, rawPlanText) })
}

// CreatePlan is [Store.CreatePlan] inside a transaction.
func (tx *Tx) CreatePlan(ctx context.Context, sessionID, rawPlanText string) (coach.Plan, error) {
	p := coach.Plan{ID: tx.s.NewID(), SessionID: sessionID, RawPlanText: rawPlanText, CreatedAt: tx.s.now()}
	_, err := tx.tx.ExecContext(ctx, `INSERT INTO plans (id, session_id, raw_plan_text, created_at) VALUES (?, ?, ?, ?)`,
		p.ID, p.SessionID, p.RawPlanText, sqlite.FormatTime(p.CreatedAt))
	return p, insertErr("plan", "session "+sessionID, err)
}

// Plan returns the plan with id, or an error wrapping [ErrNotFound].
func (s *Store) Plan(ctx context.Context, id string) (p coach.Plan, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		p, err = scanPlan(tx.QueryRowContext(ctx, `SELECT id, session_id, raw_plan_text, created_at FROM plans WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			err = notFound("plan", id)
		}
		return err
	})
	return p, err
}

// LatestPlan returns the newest plan of a session (a second coaching run
// creates a new plan, EC-61), or an error wrapping [ErrNotFound].
func (s *Store) LatestPlan(ctx context.Context, sessionID string) (p coach.Plan, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		p, err = scanPlan(tx.QueryRowContext(ctx, `SELECT id, session_id, raw_plan_text, created_at FROM plans
			WHERE session_id = ? ORDER BY created_at DESC, id DESC LIMIT 1`, sessionID))
		if errors.Is(err, sql.ErrNoRows) {
			err = notFound("plan of session", sessionID)
		}
		return err
	})
	return p, err
}

// DeletePlan removes a plan and, by cascade, its phases with their hints and
// progress events.
func (s *Store) DeletePlan(ctx context.Context, id string) error {
	return s.Update(ctx, func(tx *Tx) error { return deleteRow(ctx, tx.tx, "plans", "plan", id) })
}

func scanPlan(r Scanner) (coach.Plan, error) {
	var p coach.Plan
	var created string
	if err := r.Scan(&p.ID, &p.SessionID, &p.RawPlanText, &created); err != nil {
		return p, err
	}
	var err error
	p.CreatedAt, err = parseTime(created)
	return p, err
}

// CreatePhase stores a phase of a plan. ID, if empty, is generated; Status
// defaults to pending and HintLevel to none; nil ExpectedFiles is stored as
// []. The returned Phase is what was stored.
func (s *Store) CreatePhase(ctx context.Context, ph coach.Phase) (coach.Phase, error) {
	return update(ctx, s, func(tx *Tx) (coach.Phase, error) { return tx.CreatePhase(ctx, ph) })
}

// CreatePhase is [Store.CreatePhase] inside a transaction.
func (tx *Tx) CreatePhase(ctx context.Context, ph coach.Phase) (coach.Phase, error) {
	if ph.ID == "" {
		ph.ID = tx.s.NewID()
	}
	if ph.Status == "" {
		ph.Status = coach.PhasePending
	}
	if !ph.Status.Valid() {
		return ph, invalidf("phase status %q", ph.Status)
	}
	if ph.HintLevel == "" {
		ph.HintLevel = coach.HintNone
	}
	if ph.ExpectedFiles == nil {
		ph.ExpectedFiles = []string{}
	}
	files, _ := json.Marshal(ph.ExpectedFiles)
	_, err := tx.tx.ExecContext(ctx, `INSERT INTO phases (id, plan_id, number, title, description, status, hint_level,
		expected_files, started_at, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ph.ID, ph.PlanID, ph.Number, ph.Title, ph.Description, ph.Status, ph.HintLevel, string(files),
		formatNullTime(ph.StartedAt), formatNullTime(ph.CompletedAt))
	return ph, insertErr("phase", "plan "+ph.PlanID, err)
}

const phaseCols = `id, plan_id, number, title, description, status, hint_level, expected_files, started_at, completed_at`

// Phase returns the phase with id, or an error wrapping [ErrNotFound] (EC-31).
func (s *Store) Phase(ctx context.Context, id string) (ph coach.Phase, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		ph, err = findPhase(ctx, tx, id)
		return err
	})
	return ph, err
}

// Phases returns the phases of a plan ordered by number.
func (s *Store) Phases(ctx context.Context, planID string) (list []coach.Phase, err error) {
	err = s.read(ctx, func(tx *sql.Tx) error {
		var err error
		list, err = QueryAll(ctx, tx, scanPhase, `SELECT `+phaseCols+` FROM phases WHERE plan_id = ? ORDER BY number, id`, planID)
		return err
	})
	return list, err
}

// SetPhaseStatus moves a phase to status and returns the updated phase and
// whether anything changed. Becoming active sets started_at (first time
// only); becoming complete sets completed_at (and started_at if it was never
// set). A phase already in status is returned unchanged with changed false
// (EC-32). A missing phase yields an error wrapping [ErrNotFound] (EC-31).
func (s *Store) SetPhaseStatus(ctx context.Context, id string, status coach.PhaseStatus) (ph coach.Phase, changed bool, err error) {
	err = s.Update(ctx, func(tx *Tx) error {
		ph, changed, err = tx.SetPhaseStatus(ctx, id, status)
		return err
	})
	return ph, changed, err
}

// SetPhaseStatus is [Store.SetPhaseStatus] inside a transaction.
func (tx *Tx) SetPhaseStatus(ctx context.Context, id string, status coach.PhaseStatus) (coach.Phase, bool, error) {
	if !status.Valid() {
		return coach.Phase{}, false, invalidf("phase status %q", status)
	}
	ph, err := findPhase(ctx, tx.tx, id)
	if err != nil || ph.Status == status {
		return ph, false, err
	}
	now := tx.s.now()
	ph.Status = status
	switch status {
	case coach.PhaseActive:
		if ph.StartedAt == nil {
			ph.StartedAt = &now
		}
		ph.CompletedAt = nil
	case coach.PhaseComplete:
		if ph.StartedAt == nil {
			ph.StartedAt = &now
		}
		ph.CompletedAt = &now
	case coach.PhasePending:
		ph.StartedAt, ph.CompletedAt = nil, nil
	}
	_, err = tx.tx.ExecContext(ctx, `UPDATE phases SET status = ?, started_at = ?, completed_at = ? WHERE id = ?`,
		ph.Status, formatNullTime(ph.StartedAt), formatNullTime(ph.CompletedAt), id)
	return ph, err == nil, err
}

func findPhase(ctx context.Context, q querier, id string) (coach.Phase, error) {
	ph, err := scanPhase(q.QueryRowContext(ctx, `SELECT `+phaseCols+` FROM phases WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return ph, notFound("phase", id)
	}
	return ph, err
}

func scanPhase(r Scanner) (coach.Phase, error) {
	var (
		ph               coach.Phase
		files            string
		started, stopped sql.NullString
	)
	if err := r.Scan(&ph.ID, &ph.PlanID, &ph.Number, &ph.Title, &ph.Description, &ph.Status, &ph.HintLevel,
		&files, &started, &stopped); err != nil {
		return ph, err
	}
	if err := decodeList(files, &ph.ExpectedFiles); err != nil {
		return ph, err
	}
	var err error
	if ph.StartedAt, err = parseNullTime(started); err != nil {
		return ph, err
	}
	ph.CompletedAt, err = parseNullTime(stopped)
	return ph, err
}

// decodeList decodes a JSON array column, leaving an empty (non-nil) slice
// for NULL, "" or "[]".
func decodeList[T any](raw string, dst *[]T) error {
	*dst = []T{}
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(raw), dst); err != nil {
		return err
	}
	if *dst == nil {
		*dst = []T{}
	}
	return nil
}

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
