package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/paige-dev/paige/internal/coach"

	"github.com/paige-dev/paige/internal/sqlite"
)

// APICallFilter narrows [Store.APICallStats]. Zero fields do not filter.
type APICallFilter struct {
	SessionID string
	Since     time.Time
}

// APICallStats aggregates api_call_log (scenario 4.6, FR-046). Failed calls
// (latency_ms = -1) count in Calls and Failures but not in the latency
// average. AvgLatencyMs is 0 when there is no successful call. TotalCost
// sums the calls whose cost is known; UnpricedCalls counts the others
// (models without a known price), whose cost is unknown, not $0: a reader
// shows "unknown" for them rather than adding them as 0.
type APICallStats struct {
	Calls         int          `json:"calls"`
	Failures      int          `json:"failures"`
	TotalCost     float64      `json:"totalCost"`
	UnpricedCalls int          `json:"unpricedCalls"`
	InputTokens   int64        `json:"inputTokens"`
	OutputTokens  int64        `json:"outputTokens"`
	AvgLatencyMs  float64      `json:"avgLatencyMs"`
	ByModel       []ModelStats `json:"byModel"`
}

// ModelStats is the share of one model in [APICallStats], ordered by model.
// Cost sums its calls of known cost; UnpricedCalls counts the others.
type ModelStats struct {
	Model         string  `json:"model"`
	Calls         int     `json:"calls"`
	Cost          float64 `json:"cost"`
	UnpricedCalls int     `json:"unpricedCalls"`
	AvgLatencyMs  float64 `json:"avgLatencyMs"`
}

// APICalls lists api_call_log rows matching f, oldest first; Limit 0 means all.
func (s *Store) APICalls(ctx context.Context, f APICallFilter, limit int) (list []coach.APICall, err error) {
	where, args := f.where()
	query := `SELECT id, coalesce(session_id, ''), call_type, model, input_hash, latency_ms, input_tokens, output_tokens,
		cost_estimate, created_at FROM api_call_log` + where + ` ORDER BY created_at, id`
	if limit > 0 {
		query += ` LIMIT ?`
		args = append(args, limit)
	}
	err = s.read(ctx, func(tx *sql.Tx) (err error) {
		list, err = QueryAll(ctx, tx, scanAPICall, query, args...)
		return err
	})
	return list, err
}

func scanAPICall(r Scanner) (c coach.APICall, err error) {
	var at string
	var cost sql.NullFloat64
	if err = r.Scan(&c.ID, &c.SessionID, &c.CallType, &c.Model, &c.InputHash, &c.LatencyMs, &c.InputTokens,
		&c.OutputTokens, &cost, &at); err != nil {
		return c, err
	}
	c.CostEstimate, c.CostUnknown = cost.Float64, !cost.Valid
	c.CreatedAt, err = parseTime(at)
	return c, err
}

func (f APICallFilter) where() (string, []any) {
	where := ` WHERE created_at >= ?`
	args := []any{sqlite.FormatTime(f.Since)}
	if f.SessionID != "" {
		where += ` AND session_id = ?`
		args = append(args, f.SessionID)
	}
	return where, args
}

// APICallStats computes total cost, tokens, failures, average latency and
// cost by model with SQL aggregations.
func (s *Store) APICallStats(ctx context.Context, f APICallFilter) (st APICallStats, err error) {
	where, args := f.where()
	const aggs = `count(*), coalesce(sum(cost_estimate), 0), coalesce(sum(cost_estimate IS NULL), 0),
		coalesce(avg(CASE WHEN latency_ms >= 0 THEN latency_ms END), 0)`
	err = s.read(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT `+aggs+`, coalesce(sum(latency_ms < 0), 0),
			coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0) FROM api_call_log`+where, args...).
			Scan(&st.Calls, &st.TotalCost, &st.UnpricedCalls, &st.AvgLatencyMs, &st.Failures, &st.InputTokens, &st.OutputTokens)
		if err != nil {
			return err
		}
		st.ByModel, err = QueryAll(ctx, tx, func(r Scanner) (m ModelStats, err error) {
			err = r.Scan(&m.Model, &m.Calls, &m.Cost, &m.UnpricedCalls, &m.AvgLatencyMs)
			return m, err
		}, `SELECT model, `+aggs+` FROM api_call_log`+where+` GROUP BY model ORDER BY model`, args...)
		return err
	})
	if st.ByModel == nil {
		st.ByModel = []ModelStats{}
	}
	return st, err
}
