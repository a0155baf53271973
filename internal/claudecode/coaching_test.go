package claudecode

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/sqlite"
)

// coachDB creates a paige.db with the coach's sessions table and rows
// (project_dir, status).
func coachDB(tb testing.TB, rows ...[2]string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), DBFile)
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, project_dir TEXT NOT NULL,
		issue_number INTEGER, issue_title TEXT, status TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT)`); err != nil {
		tb.Fatal(err)
	}
	for i, r := range rows {
		if _, err := db.Exec(`INSERT INTO sessions (id, project_dir, status, started_at) VALUES (?, ?, ?, '2026-01-01T00:00:00Z')`,
			i, r[0], r[1]); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

func TestCoachingActive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noTable := filepath.Join(dir, "empty.db")
	db, err := sqlite.Open(context.Background(), noTable)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	tests := []struct {
		name   string
		db     string
		cwd    string
		active bool
	}{
		{"no database", filepath.Join(dir, "missing.db"), "/p", false},
		{"no sessions table", noTable, "/p", false},
		{"active for cwd", coachDB(t, [2]string{"/p", "active"}), "/p", true},
		{"active for a parent of cwd", coachDB(t, [2]string{"/p", "active"}), "/p/src/x", true},
		{"active elsewhere", coachDB(t, [2]string{"/p", "active"}), "/q", false},
		{"sibling prefix is not a parent", coachDB(t, [2]string{"/p", "active"}), "/pp", false},
		{"only completed", coachDB(t, [2]string{"/p", "completed"}, [2]string{"/p", "abandoned"}), "/p", false},
		{"no cwd: any active", coachDB(t, [2]string{"/p", "active"}), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CoachingActive(context.Background(), tt.db, tt.cwd)
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
	if got, err := CoachingActive(context.Background(), coachDB(t, [2]string{real, "active"}), filepath.Join(link)); err != nil || !got {
		t.Errorf("cwd through a symlink to the project: got %v, %v; want active", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); !os.IsNotExist(err) {
		t.Errorf("CoachingActive created the database file: %v", err)
	}
}

func TestCoachingActiveCorrupt(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), DBFile)
	if err := os.WriteFile(path, []byte("this is not a sqlite database, just some text that is long enough"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := CoachingActive(context.Background(), path, "/p")
	if err == nil || got {
		t.Errorf("got (%v, %v), want (false, error)", got, err)
	}
}

func TestParseMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		err      bool
	}{
		{"", ModeAuto, false}, {"auto", ModeAuto, false}, {"Coach", ModeCoach, false},
		{"on", ModeCoach, false}, {"off", ModeOff, false}, {"bogus", ModeAuto, true},
	}
	for _, tt := range tests {
		got, err := ParseMode(tt.in)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("ParseMode(%q) = %q, %v; want %q, err %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}
