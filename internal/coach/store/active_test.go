package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/sqlite"
)

// coachData creates a DATA_DIR whose paige.db is the real coach schema with
// one session per (project_dir, status) row, so a schema change that breaks
// CoachingActive breaks this test.
func coachData(tb testing.TB, rows ...[2]string) string {
	tb.Helper()
	ctx := context.Background()
	dir := tb.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	for _, r := range rows {
		sess, err := s.CreateSession(ctx, NewSession{ProjectDir: r[0]})
		if err != nil {
			tb.Fatal(err)
		}
		if st := coach.SessionStatus(r[1]); st != coach.SessionActive {
			if _, err := s.SetSessionStatus(ctx, sess.ID, st); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return dir
}

func TestCoachingActive(t *testing.T) {
	ctx := context.Background()
	missing := t.TempDir()
	noTable := t.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(noTable, FileName))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	tests := []struct {
		name    string
		dataDir string
		cwd     string
		active  bool
	}{
		{"no database", missing, "/p", false},
		{"no sessions table", noTable, "/p", false},
		{"active for cwd", coachData(t, [2]string{"/p", "active"}), "/p", true},
		{"active for a parent of cwd", coachData(t, [2]string{"/p", "active"}), "/p/src/x", true},
		{"active elsewhere", coachData(t, [2]string{"/p", "active"}), "/q", false},
		{"sibling prefix is not a parent", coachData(t, [2]string{"/p", "active"}), "/pp", false},
		{"only ended", coachData(t, [2]string{"/p", "completed"}, [2]string{"/p", "abandoned"}), "/p", false},
		{"no cwd: any active", coachData(t, [2]string{"/p", "active"}), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CoachingActive(ctx, tt.dataDir, tt.cwd)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.active {
				t.Errorf("got %v, want %v", got, tt.active)
			}
		})
	}
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if got, err := CoachingActive(ctx, coachData(t, [2]string{real, "active"}), link); err != nil || !got {
		t.Errorf("cwd through a symlink to the project: got %v, %v; want active", got, err)
	}
	if _, err := os.Stat(filepath.Join(missing, FileName)); !os.IsNotExist(err) {
		t.Errorf("CoachingActive created the database file: %v", err)
	}
}

func TestCoachingActiveCorrupt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("this is not a sqlite database, just some text that is long enough"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := CoachingActive(context.Background(), dir, "/p")
	if err == nil || got {
		t.Errorf("got (%v, %v), want (false, error)", got, err)
	}
}

// TestFindCoachingState: the session's last activity is its newest action,
// and the current phase is the first active one, else the first pending.
func TestFindCoachingState(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sess, err := s.CreateSession(ctx, NewSession{ProjectDir: "/p", IssueTitle: "fix login"})
	if err != nil {
		t.Fatal(err)
	}
	c, ok, err := FindCoaching(ctx, dir, "/p")
	if err != nil || !ok || c.Session.ID != sess.ID || c.Phase != nil || !c.LastActivity.Equal(sess.StartedAt) {
		t.Fatalf("before a plan: %+v %v %v", c, ok, err)
	}
	plan, err := s.CreatePlan(ctx, sess.ID, "plan")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, title := range []string{"read", "write", "test"} {
		ph, err := s.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: i + 1, Title: title, HintLevel: coach.HintFile})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ph.ID)
	}
	if _, _, err := s.SetPhaseStatus(ctx, ids[0], coach.PhaseComplete); err != nil {
		t.Fatal(err)
	}
	act, err := s.InsertAction(ctx, sess.ID, coach.ActionType("file_open"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, ok, err = FindCoaching(ctx, dir, "/p/src")
	if err != nil || !ok || c.Phase == nil || c.Phase.Title != "write" || c.Phases != 3 || c.Completed != 1 {
		t.Fatalf("pending phase: %+v %v %v", c, ok, err)
	}
	if c.LastActivity.Before(act.CreatedAt.Truncate(time.Millisecond)) {
		t.Errorf("last activity %v, want the action's %v", c.LastActivity, act.CreatedAt)
	}
	if _, _, err := s.SetPhaseStatus(ctx, ids[2], coach.PhaseActive); err != nil {
		t.Fatal(err)
	}
	if c, _, _ = FindCoaching(ctx, dir, "/p"); c.Phase == nil || c.Phase.Title != "test" {
		t.Errorf("active phase: %+v", c.Phase)
	}
	if got := c.IdleFor(c.LastActivity.Add(time.Hour)); got != time.Hour {
		t.Errorf("IdleFor = %v", got)
	}
}
