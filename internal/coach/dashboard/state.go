package dashboard

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/sqlite"
)

// Periods of the dashboard statistics (FR-170).
const (
	Period7d  Period = "7d"
	Period30d Period = "30d"
	PeriodAll Period = "all"
)

// PeriodStart returns the ISO 8601 lower bound of period at now: 7 or 30
// days before now, or "" for "all" (every stored timestamp compares >= "").
// An empty period means "all". Unknown periods return an error.
func PeriodStart(period Period, now time.Time) (string, error) {
	switch period {
	case Period7d:
		return sqlite.FormatTime(now.Add(-7 * 24 * time.Hour)), nil
	case Period30d:
		return sqlite.FormatTime(now.Add(-30 * 24 * time.Hour)), nil
	case PeriodAll, "":
		return "", nil
	}
	return "", fmt.Errorf("statsPeriod must be 7d, 30d or all, got %q", period)
}

// The dashboard:state queries (spec story 12, "SQLite Queries"). COALESCE
// turns the SUM of no rows into 0: an empty database reads as zeros.
const (
	qDreyfus = `SELECT skill_area, stage, confidence, assessed_at FROM dreyfus_assessments ORDER BY skill_area`
	qDone    = `SELECT COUNT(*), COALESCE(SUM((julianday(ended_at) - julianday(started_at)) * 1440), 0)
		FROM sessions WHERE status = 'completed' AND ended_at >= ?`
	qIssues = `SELECT COUNT(DISTINCT issue_number) FROM sessions WHERE issue_number IS NOT NULL AND started_at >= ?`
	qGaps   = `SELECT COUNT(*), COALESCE(SUM(CASE WHEN addressed = 1 THEN 1 ELSE 0 END), 0)
		FROM knowledge_gaps WHERE last_encountered_at >= ?`
	qHints = `SELECT COUNT(*) FROM progress_events pe
		JOIN phases p ON pe.phase_id = p.id
		JOIN plans pl ON p.plan_id = pl.id
		JOIN sessions s ON pl.session_id = s.id
		WHERE pe.event_type = 'hint_used' AND s.started_at >= ?`
	// qHintsAll is qHints without a period: every progress event belongs
	// to a session (NOT NULL foreign keys), so no join is needed.
	qHintsAll   = `SELECT COUNT(*) FROM progress_events WHERE event_type = 'hint_used'`
	qCost       = `SELECT COALESCE(SUM(cost_estimate), 0), COALESCE(SUM(cost_estimate IS NULL), 0) FROM api_call_log WHERE created_at >= ?`
	qInProgress = `SELECT id, issue_number, issue_title, started_at FROM sessions WHERE status = 'active' ORDER BY started_at DESC`
	qKatas      = `SELECT k.id, k.title, g.topic, k.constraints, k.user_attempts
		FROM kata_specs k JOIN knowledge_gaps g ON k.knowledge_gap_id = g.id ORDER BY g.topic, k.title, k.id`
)

// State reads the dashboard:state payload from db in one read-only
// transaction (FR-168, FR-169): every Dreyfus assessment, the statistics of
// period, the active sessions and the katas. Only stats are filtered by
// period (scenario 12.10). Every number comes from a query; nothing is
// estimated (EC-88: no data reads as zeros and empty lists).
func State(ctx context.Context, db *sql.DB, period Period, now time.Time) (DashboardState, error) {
	if period == "" {
		period = PeriodAll
	}
	since, err := PeriodStart(period, now)
	if err != nil {
		return DashboardState{}, err
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return DashboardState{}, fmt.Errorf("dashboard state: %w", err)
	}
	defer tx.Rollback()
	out := DashboardState{Stats: DashboardStats{Period: period}}
	if out.Dreyfus, err = readDreyfus(ctx, tx); err != nil {
		return out, fmt.Errorf("dashboard dreyfus: %w", err)
	}
	if err = readStats(ctx, tx, since, &out.Stats); err != nil {
		return out, fmt.Errorf("dashboard stats: %w", err)
	}
	if out.InProgressSessions, err = readInProgress(ctx, tx); err != nil {
		return out, fmt.Errorf("dashboard sessions: %w", err)
	}
	if out.Katas, err = readKatas(ctx, tx); err != nil {
		return out, fmt.Errorf("dashboard katas: %w", err)
	}
	return out, nil
}

func readDreyfus(ctx context.Context, tx *sql.Tx) ([]DreyfusEntry, error) {
	return orEmpty(store.QueryAll(ctx, tx, func(r store.Scanner) (e DreyfusEntry, err error) {
		err = r.Scan(&e.SkillArea, &e.Stage, &e.Confidence, &e.AssessedAt)
		return e, err
	}, qDreyfus))
}

// orEmpty returns list, or an empty non-nil slice when it is nil, so the
// payload carries [] rather than null (EC-88).
func orEmpty[T any](list []T, err error) ([]T, error) {
	if list == nil {
		list = []T{}
	}
	return list, err
}

func readStats(ctx context.Context, tx *sql.Tx, since string, s *DashboardStats) error {
	if err := tx.QueryRowContext(ctx, qDone, since).Scan(&s.SessionsCompleted, &s.TotalCoachingMinutes); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, qIssues, since).Scan(&s.IssuesWorkedOn); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, qGaps, since).Scan(&s.KnowledgeGapsIdentified, &s.KnowledgeGapsAddressed); err != nil {
		return err
	}
	hints := tx.QueryRowContext(ctx, qHintsAll)
	if since != "" {
		hints = tx.QueryRowContext(ctx, qHints, since)
	}
	if err := hints.Scan(&s.HintsUsed); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, qCost, since).Scan(&s.APICostTotal, &s.APICostUnpricedCalls); err != nil {
		return err
	}
	// julianday arithmetic and float sums carry noise (29.999999…): round
	// minutes to 0.01 and dollars to a millionth.
	s.TotalCoachingMinutes = round(s.TotalCoachingMinutes, 100)
	s.APICostTotal = round(s.APICostTotal, 1e6)
	return nil
}

func round(v, scale float64) float64 { return math.Round(v*scale) / scale }

func readInProgress(ctx context.Context, tx *sql.Tx) ([]InProgressSession, error) {
	return orEmpty(store.QueryAll(ctx, tx, func(r store.Scanner) (InProgressSession, error) {
		var (
			s     InProgressSession
			num   sql.NullInt64
			title sql.NullString
		)
		err := r.Scan(&s.ID, &num, &title, &s.StartedAt)
		if num.Valid {
			n := int(num.Int64)
			s.IssueNumber = &n
		}
		s.IssueTitle = nonEmpty(title)
		return s, err
	}, qInProgress))
}

// nonEmpty returns s's string, or nil when s is NULL or empty.
func nonEmpty(s sql.NullString) *string {
	if !s.Valid || s.String == "" {
		return nil
	}
	return &s.String
}

func readKatas(ctx context.Context, tx *sql.Tx) ([]KataSummary, error) {
	return orEmpty(store.QueryAll(ctx, tx, func(r store.Scanner) (KataSummary, error) {
		var k KataSummary
		var constraints, attempts string
		if err := r.Scan(&k.ID, &k.Title, &k.Topic, &constraints, &attempts); err != nil {
			return k, err
		}
		if err := SummariseKata(&k, constraints, attempts); err != nil {
			return k, fmt.Errorf("kata %s: %w", k.ID, err)
		}
		return k, nil
	}, qKatas))
}

// SummariseKata fills k's counters from the kata_specs JSON columns:
// constraintCount is the number of constraints, attemptsCount the number of
// attempts and bestLevel the highest reviewed level (nil when no attempt has
// been reviewed).
func SummariseKata(k *KataSummary, constraints, attempts string) error {
	var cs []json.RawMessage
	if err := json.Unmarshal([]byte(constraints), &cs); err != nil {
		return fmt.Errorf("constraints: %w", err)
	}
	var as []coach.KataAttempt
	if err := json.Unmarshal([]byte(attempts), &as); err != nil {
		return fmt.Errorf("user_attempts: %w", err)
	}
	k.ConstraintCount, k.AttemptsCount, k.BestLevel = len(cs), len(as), nil
	for _, a := range as {
		if a.Level != nil && (k.BestLevel == nil || *a.Level > *k.BestLevel) {
			lvl := *a.Level
			k.BestLevel = &lvl
		}
	}
	return nil
}
