package store

import (
	"context"
	"database/sql"
	"io/fs"
	"math"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/sqlite"
)

// migrationsUpTo returns the coach migrations whose number is at most last
// ("003"): the schema an older Paige left behind.
func migrationsUpTo(tb testing.TB, last string) fs.FS {
	tb.Helper()
	out := fstest.MapFS{}
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range entries {
		if e.Name()[:len(last)] > last {
			continue
		}
		b, err := fs.ReadFile(migrationFiles, "migrations/"+e.Name())
		if err != nil {
			tb.Fatal(err)
		}
		out[e.Name()] = &fstest.MapFile{Data: b}
	}
	return out
}

// openMigratedUpTo creates a coach database in a temporary directory with
// the migrations up to last ("003") applied: the database an older Paige
// left behind, open for the test to fill before OpenFile migrates it.
func openMigratedUpTo(tb testing.TB, last string) (string, *sql.DB) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), FileName)
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	if err := sqlite.Migrate(context.Background(), db, Namespace, migrationsUpTo(tb, last)); err != nil {
		tb.Fatal(err)
	}
	return path, db
}

// schemaObjects lists the indexes and triggers on table as "type name: sql".
func schemaObjects(tb testing.TB, db *sql.DB, table string) []string {
	tb.Helper()
	return column(tb, db, `SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master
		WHERE tbl_name = ? AND type IN ('index', 'trigger') ORDER BY type, name`, table)
}

// dumpActions returns every action_log row, NULLs as "<null>".
func dumpActions(tb testing.TB, db *sql.DB) [][5]string {
	tb.Helper()
	out, err := QueryAll(context.Background(), db, func(r Scanner) (a [5]string, err error) {
		err = r.Scan(&a[0], &a[1], &a[2], &a[3], &a[4])
		return a, err
	}, `SELECT id, coalesce(session_id, '<null>'), action_type, coalesce(data, '<null>'), created_at
		FROM action_log ORDER BY id`)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// Migration 004 rebuilds action_log with a nullable session_id: a database
// with rows from the previous schema keeps every row, byte for byte, its
// indexes (same definitions) and its foreign key with ON DELETE CASCADE;
// afterwards a sessionless dashboard_loaded can be stored, other sessionless
// actions still cannot.
func TestMigrationActionLogOptionalSession(t *testing.T) {
	ctx := context.Background()
	path, old := openMigratedUpTo(t, "003")
	for _, q := range []string{
		`INSERT INTO sessions (id, project_dir, status, started_at) VALUES ('s1', '/p', 'active', '2026-02-11T09:00:00.000Z'),
			('s2', '/p', 'completed', '2026-02-10T09:00:00.000Z')`,
		`INSERT INTO action_log (id, session_id, action_type, data, created_at) VALUES
			('a1', 's1', 'file_open', '{"path":"src/a.ts"}', '2026-02-11T09:00:01.000Z'),
			('a2', 's1', 'session_started', NULL, '2026-02-11T09:00:00.000Z'),
			('a3', 's2', 'session_end', '{"knowledgeGaps":1}', '2026-02-10T10:00:00.000Z')`,
	} {
		if _, err := old.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	before := dumpActions(t, old)
	indexesBefore := schemaObjects(t, old, "action_log")
	if len(indexesBefore) != 3 { // 002's two and the primary key's
		t.Fatalf("the old schema has %d indexes on action_log, want 3: %v", len(indexesBefore), indexesBefore)
	}
	old.Close()

	s, err := OpenFile(ctx, path)
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	defer s.Close()
	if diff := cmp.Diff(before, dumpActions(t, s.DB())); diff != "" {
		t.Errorf("rows after the migration (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(indexesBefore, schemaObjects(t, s.DB(), "action_log")); diff != "" {
		t.Errorf("indexes and triggers after the migration (-want +got):\n%s", diff)
	}
	var tmp int
	s.DB().QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'action_log_new'`).Scan(&tmp)
	if tmp != 0 {
		t.Error("the rebuild left action_log_new behind")
	}
	var notNull int
	if err := s.DB().QueryRow(`SELECT "notnull" FROM pragma_table_info('action_log') WHERE name = 'session_id'`).Scan(&notNull); err != nil || notNull != 0 {
		t.Errorf("session_id notnull = %d (%v), want 0", notNull, err)
	}
	if rows, err := s.DB().Query(`PRAGMA foreign_key_check(action_log)`); err != nil {
		t.Fatal(err)
	} else {
		if rows.Next() {
			t.Error("foreign_key_check reports violations after the migration")
		}
		rows.Close()
	}

	// The foreign key still refuses unknown sessions and cascades.
	if _, err := s.InsertAction(ctx, "nope", coach.ActionFileOpen, nil); err == nil {
		t.Error("an action of an unknown session was stored")
	}
	if _, err := s.DB().Exec(`DELETE FROM sessions WHERE id = 's2'`); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.CountActions(ctx, "", coach.ActionSessionEnd, t0.AddDate(-1, 0, 0)); n != 0 {
		t.Errorf("deleting session s2 left %d of its actions", n)
	}

	// Sessionless: dashboard_loaded yes (NULL session), anything else no.
	a, err := s.InsertAction(ctx, "", coach.ActionDashboardLoaded, []byte(`{"statsPeriod":"all"}`))
	if err != nil {
		t.Fatalf("sessionless dashboard_loaded: %v", err)
	}
	var session sql.NullString
	s.DB().QueryRow(`SELECT session_id FROM action_log WHERE id = ?`, a.ID).Scan(&session)
	if session.Valid {
		t.Errorf("session_id = %q, want NULL", session.String)
	}
	if _, err := s.InsertAction(ctx, "", coach.ActionFileOpen, nil); err == nil {
		t.Error("a sessionless file_open was stored")
	}
	if n, err := s.CountActions(ctx, "", coach.ActionDashboardLoaded, t0.AddDate(-1, 0, 0)); err != nil || n != 1 {
		t.Errorf("CountActions across sessions = %d, %v; want 1", n, err)
	}
	if got, err := s.RecentActions(ctx, ActionQuery{SessionID: "s1"}); err != nil || len(got) != 2 {
		t.Errorf("s1's actions = %d, %v; want 2", len(got), err)
	}
}

// Migration 005 keeps every row, makes the cost nullable, turns the $0 of
// successful unpriced calls into unknown, and reprices claude-haiku-4-5
// rows from $0.80 / $4 to $1 / $5.
func TestMigrationCostUnknown(t *testing.T) {
	ctx := context.Background()
	path, db := openMigratedUpTo(t, "004")
	haiku := (1000*0.80 + 100*4.00) / 1e6
	if _, err := db.Exec(`INSERT INTO api_call_log (id, call_type, model, latency_ms, input_tokens, output_tokens, cost_estimate, created_at) VALUES
		('a', 'observer_triage', 'claude-haiku-4-5-20251001', 100, 1000, 100, ?, '2026-11-01T00:00:00.000Z'),
		('b', 'coach_agent', 'my-finetune', 100, 1000, 100, 0, '2026-11-01T00:00:01.000Z'),
		('c', 'coach_agent', 'claude-sonnet-4-5-20250929', -1, 0, 0, 0, '2026-11-01T00:00:02.000Z'),
		('d', 'coach_agent', 'claude-sonnet-4-5-20250929', 100, 1000, 100, 0.0045, '2026-11-01T00:00:03.000Z'),
		('e', 'observer_triage', 'claude-haiku-4-5-preview', 100, 1000, 100, 0.5, '2026-11-01T00:00:04.000Z')`, haiku); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := OpenFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.APICalls(ctx, APICallFilter{}, 0)
	if err != nil || len(rows) != 5 {
		t.Fatalf("rows after migration: %d, %v", len(rows), err)
	}
	want := map[string]struct { // a: (1000×$1 + 100×$5) / 1e6
		cost    float64
		unknown bool
	}{"a": {0.0015, false}, "b": {0, true}, "c": {0, false}, "d": {0.0045, false}, "e": {0.5, false}}
	for _, r := range rows {
		w := want[r.ID]
		if math.Abs(r.CostEstimate-w.cost) > 1e-12 || r.CostUnknown != w.unknown {
			t.Errorf("row %s: cost %v unknown %v, want %v %v", r.ID, r.CostEstimate, r.CostUnknown, w.cost, w.unknown)
		}
	}
	if err := s.InsertAPICall(ctx, coach.APICall{CallType: "x", Model: "m", LatencyMs: 1, CostUnknown: true}); err != nil {
		t.Errorf("NULL cost after migration: %v", err)
	}
}
