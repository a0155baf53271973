package store

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
)

// clock is a manual time source for deterministic timestamps.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

var t0 = time.Date(2026, 2, 11, 9, 30, 0, 123_000_000, time.UTC)

// newStore opens a store in a temp DATA_DIR with a manual clock.
func newStore(tb testing.TB) (*Store, *clock) {
	tb.Helper()
	s, err := Open(context.Background(), tb.TempDir())
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	c := &clock{t: t0}
	s.Now = c.Now
	return s, c
}

func mustSession(tb testing.TB, s *Store) coach.Session {
	tb.Helper()
	n := 42
	sess, err := s.CreateSession(context.Background(), NewSession{ProjectDir: "/p", IssueNumber: &n, IssueTitle: "Fix login"})
	if err != nil {
		tb.Fatalf("CreateSession: %v", err)
	}
	return sess
}

// mustPhase creates a session, its plan and the plan's phase 1.
func mustPhase(tb testing.TB, s *Store) coach.Phase {
	tb.Helper()
	ctx := context.Background()
	plan, err := s.CreatePlan(ctx, mustSession(tb, s).ID, "p")
	if err != nil {
		tb.Fatal(err)
	}
	ph, err := s.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "t"})
	if err != nil {
		tb.Fatal(err)
	}
	return ph
}

var allTables = []string{"action_log", "api_call_log", "dreyfus_assessments", "kata_specs", "knowledge_gaps",
	"phase_hints", "phases", "plans", "progress_events", "sessions"}

func tables(tb testing.TB, s *Store) []string {
	tb.Helper()
	return column(tb, s.DB(), `SELECT name FROM sqlite_master
		WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY name`)
}

// column returns the single text column of every row query reads from db.
func column(tb testing.TB, db *sql.DB, query string, args ...any) []string {
	tb.Helper()
	out, err := QueryAll(context.Background(), db, func(r Scanner) (v string, err error) {
		err = r.Scan(&v)
		return v, err
	}, query, args...)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// Scenario 2.1, SC-006, SC-009, FR-010.
func TestOpenFreshCreatesAllTables(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Stat(filepath.Join(dir, "paige.db")); err != nil {
		t.Fatalf("database file: %v", err)
	}
	if diff := cmp.Diff(allTables, tables(t, s)); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	var mode string
	if err := s.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := s.DB().QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}
}

// Scenario 2.2: reopening keeps data and does not re-run migrations.
func TestReopenPreservesData(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.CreateSession(ctx, NewSession{ProjectDir: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	s2, err := Open(ctx, dir)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	got, err := s2.Session(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sess, got); diff != "" {
		t.Errorf("session after reopen (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(allTables, tables(t, s2)); diff != "" {
		t.Errorf("tables after reopen (-want +got):\n%s", diff)
	}
	var n int
	s2.DB().QueryRow(`SELECT count(*) FROM schema_migrations WHERE namespace = 'coach'`).Scan(&n)
	files, _ := fs.Glob(migrationFiles, "migrations/*.sql")
	if n != len(files) {
		t.Errorf("migrations recorded = %d, want %d", n, len(files))
	}
}

// EC-06: a corrupt file is a clear error wrapping ErrCorrupt.
func TestOpenCorrupt(t *testing.T) {
	dir := t.TempDir()
	junk := make([]byte, 16384)
	for i := range junk {
		junk[i] = byte(i*31 + 7)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), junk, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), dir)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open(corrupt) = %v, want ErrCorrupt", err)
	}
}

// Scenario 2.3.
func TestSessionCRUD(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t)
	sess := mustSession(t, s)
	n := 42
	want := coach.Session{ID: sess.ID, ProjectDir: "/p", IssueNumber: &n, IssueTitle: "Fix login", Status: coach.SessionActive, StartedAt: t0}
	if diff := cmp.Diff(want, sess); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}
	got, err := s.Session(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	active, err := s.ActiveSession(ctx)
	if err != nil || active.ID != sess.ID {
		t.Errorf("ActiveSession = %v, %v; want %s", active.ID, err, sess.ID)
	}

	c.Advance(time.Minute)
	done, err := s.SetSessionStatus(ctx, sess.ID, coach.SessionCompleted)
	if err != nil {
		t.Fatal(err)
	}
	if done.EndedAt == nil || !done.EndedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("ended_at = %v, want %v", done.EndedAt, t0.Add(time.Minute))
	}
	if _, err := s.ActiveSession(ctx); !errors.Is(err, ErrNotFound) {
		t.Errorf("ActiveSession after completion = %v, want ErrNotFound", err)
	}
	resumed, err := s.SetSessionStatus(ctx, sess.ID, coach.SessionActive)
	if err != nil || resumed.EndedAt != nil || resumed.Status != coach.SessionActive {
		t.Errorf("resume = %+v, %v; want active without ended_at", resumed, err)
	}
	if _, err := s.SetSessionStatus(ctx, sess.ID, "paused"); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad status: %v, want ErrInvalid", err)
	}
	if _, err := s.Session(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing session: %v, want ErrNotFound", err)
	}
	noIssue, err := s.CreateSession(ctx, NewSession{ProjectDir: "/q"})
	if err != nil || noIssue.IssueNumber != nil {
		t.Errorf("session without issue = %+v, %v", noIssue, err)
	}
	list, err := s.Sessions(ctx, SessionFilter{Status: coach.SessionActive})
	if err != nil || len(list) != 2 {
		t.Errorf("Sessions(active) = %d, %v; want 2", len(list), err)
	}
	if _, err := s.CreateSession(ctx, NewSession{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("session without project: %v, want ErrInvalid", err)
	}
	if err := s.DeleteSession(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, sess.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete = %v, want ErrNotFound", err)
	}
}
