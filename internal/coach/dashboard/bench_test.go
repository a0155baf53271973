package dashboard

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/sqlite"
)

// seedBench fills st with 1,000 sessions over 90 days (each with a plan, 3
// phases and 15 progress events), 100,000 actions, 5,000 API calls, 300
// knowledge gaps, 60 katas and 12 Dreyfus assessments.
func seedBench(tb testing.TB, st *store.Store, now time.Time) {
	tb.Helper()
	ctx := context.Background()
	tx, err := st.DB().BeginTx(ctx, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	exec := func(q string, args ...any) {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
	}
	for i := range 1000 {
		seedSession(tb, exec, i, now)
	}
	for i := range 12 {
		exec(`INSERT INTO dreyfus_assessments (id, skill_area, stage, confidence, assessed_at) VALUES (?, ?, 'competent', 0.5, ?)`,
			fmt.Sprintf("d%d", i), fmt.Sprintf("area %d", i), sqlite.FormatTime(now))
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	if _, err := st.DB().ExecContext(ctx, `ANALYZE`); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkDashboardState measures dashboard:state (every query of the
// payload) over 1,000 sessions and 100,000 actions, for the 7d period and
// for all time. Target: ≤ 10 ms.
func BenchmarkDashboardState(b *testing.B) {
	st, _ := openStore(b)
	seedBench(b, st, now0)
	for _, period := range []string{"7d", "all"} {
		b.Run(period, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				s, err := State(ctx, st.DB(), Period(period), now0)
				if err != nil {
					b.Fatal(err)
				}
				if period == "all" && s.Stats.SessionsCompleted != 980 {
					b.Fatalf("sessionsCompleted: got %d, want 980", s.Stats.SessionsCompleted)
				}
			}
		})
	}
}

// seedSession inserts benchmark session i: its row, plan, phases, progress
// events, 100 actions, 5 API calls and, for some, a gap and a kata.
func seedSession(tb testing.TB, exec func(string, ...any), i int, now time.Time) {
	tb.Helper()
	ts := func(t time.Time) string { return sqlite.FormatTime(t) }
	sid := fmt.Sprintf("s%04d", i)
	start := now.Add(-time.Duration(i) * 90 * 24 * time.Hour / 1000)
	status, ended := "completed", sql.NullString{String: ts(start.Add(40 * time.Minute)), Valid: true}
	if i%50 == 0 {
		status, ended = "active", sql.NullString{}
	}
	exec(`INSERT INTO sessions (id, project_dir, issue_number, issue_title, status, started_at, ended_at) VALUES (?, '/p', ?, 'issue', ?, ?, ?)`,
		sid, i%120, status, ts(start), ended)
	exec(`INSERT INTO plans (id, session_id, raw_plan_text, created_at) VALUES (?, ?, 'plan', ?)`, "p"+sid, sid, ts(start))
	for ph := range 3 {
		pid := fmt.Sprintf("ph%s_%d", sid, ph)
		exec(`INSERT INTO phases (id, plan_id, number, title) VALUES (?, ?, ?, 't')`, pid, "p"+sid, ph+1)
		for e := range 5 {
			typ := "hint_used"
			if e%2 == 1 {
				typ = "review_requested"
			}
			exec(`INSERT INTO progress_events (id, phase_id, event_type, created_at) VALUES (?, ?, ?, ?)`,
				fmt.Sprintf("%s_%d", pid, e), pid, typ, ts(start))
		}
	}
	for a := range 100 {
		exec(`INSERT INTO action_log (id, session_id, action_type, data, created_at) VALUES (?, ?, 'file_save', '{"path":"a.ts"}', ?)`,
			fmt.Sprintf("a%s_%03d", sid, a), sid, ts(start.Add(time.Duration(a)*time.Second)))
	}
	for c := range 5 {
		exec(`INSERT INTO api_call_log (id, session_id, call_type, model, latency_ms, cost_estimate, created_at) VALUES (?, ?, 'coach_agent', 'm', 10, 0.01, ?)`,
			fmt.Sprintf("c%s_%d", sid, c), sid, ts(start))
	}
	if i%10 < 3 {
		gid := "g" + sid
		exec(`INSERT INTO knowledge_gaps (id, session_id, topic, severity, frequency, last_encountered_at, addressed) VALUES (?, ?, ?, 'medium', 2, ?, ?)`,
			gid, sid, fmt.Sprintf("topic %d", i%40), ts(start), i%2)
		if i%50 < 3 {
			exec(`INSERT INTO kata_specs (id, knowledge_gap_id, title, constraints, user_attempts) VALUES (?, ?, 'kata', '[{"title":"a"}]', '[{"code":"x","level":3}]')`,
				"k"+sid, gid)
		}
	}
}
