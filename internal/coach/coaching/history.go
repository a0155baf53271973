package coaching

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
)

// MaxHistoryGaps bounds the gap rows read as Dreyfus evidence.
const MaxHistoryGaps = 2000

// history reads the cross-session evidence of the Dreyfus assessment: the
// stored assessments, every gap (this session's included, so run it after
// the gap extraction), hint level changes per session and the phase
// completion rate over all plans. The aggregates are read-only reporting
// queries on store.DB.
func (s *Service) history(ctx context.Context, sessionID string) (history, error) {
	var h history
	var err error
	if h.Assessments, err = s.st.DreyfusAssessments(ctx); err != nil {
		return h, err
	}
	if h.Gaps, err = s.st.KnowledgeGaps(ctx, store.GapFilter{Limit: MaxHistoryGaps}); err != nil {
		return h, err
	}
	if h.SessionHints, h.EarlierHints, err = hintCounts(ctx, s.st.DB(), sessionID); err != nil {
		return h, err
	}
	var total, done sql.NullInt64
	err = s.st.DB().QueryRowContext(ctx,
		`SELECT COUNT(*), SUM(status = 'complete') FROM phases`).Scan(&total, &done)
	if err != nil {
		return h, fmt.Errorf("phase completion: %w", err)
	}
	if total.Int64 > 0 {
		h.CompletionRate = float64(done.Int64) / float64(total.Int64)
	}
	return h, nil
}

// hintCounts returns this session's hint level changes and those of every
// earlier completed session (sessions without any count as 0).
func hintCounts(ctx context.Context, db *sql.DB, sessionID string) (current int, earlier []int, err error) {
	rows, err := db.QueryContext(ctx, `SELECT s.id, COUNT(a.id) FROM sessions s
		LEFT JOIN action_log a ON a.session_id = s.id AND a.action_type = ?
		WHERE s.status = 'completed' OR s.id = ?
		GROUP BY s.id`, string(coach.ActionHintLevelChange), sessionID)
	if err != nil {
		return 0, nil, fmt.Errorf("hint counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return 0, nil, err
		}
		if id == sessionID {
			current = n
		} else {
			earlier = append(earlier, n)
		}
	}
	return current, earlier, rows.Err()
}
