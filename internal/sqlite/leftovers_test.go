//go:build unix

package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// TestRemoveLeftovers: Open removes the temporary databases an older
// Paige's first start left beside the database, and nothing else.
func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "paige.db")
	leftovers := []string{".paige.db.new-0123456789abcdef", ".paige.db.new-0123456789abcdef-wal",
		".paige.db.new-fedcba9876543210-shm", ".paige.db.new-00000000000000aa-journal"}
	kept := []string{".paige.db.new-notes", ".paige.db.new-0123456789ABCDEF", ".paige.db.new-0123456789abcdef.txt",
		".learn.db.new-0123456789abcdef", "paige.db.new-0123456789abcdef", ".paige.db.new-0123456789abcde", "notes.md"}
	testenv.WriteFiles(t, dir, "x", append(slices.Clone(leftovers), kept...)...)
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	testenv.CheckRemoved(t, dir, leftovers, kept)
}

// envFirstStartDir names the directory the helper process of
// TestKilledFirstStartLeavesNothing makes databases in.
const envFirstStartDir = "PAIGE_SQLITE_TEST_FIRST_START_DIR"

// TestFirstStartHelper is not a test of its own: run by
// TestKilledFirstStartLeavesNothing as a separate process, it makes new
// databases with the coach's migrations, one after the other, until it is
// killed.
func TestFirstStartHelper(t *testing.T) {
	dir := os.Getenv(envFirstStartDir)
	if dir == "" {
		return // only meaningful as the helper process
	}
	fsys := os.DirFS(realMigrations["coach"])
	fmt.Println("started")
	for i := 0; ; i++ {
		db, err := Open(context.Background(), filepath.Join(dir, fmt.Sprintf("%d.db", i)))
		if err != nil {
			t.Fatal(err)
		}
		if err := Migrate(context.Background(), db, "coach", fsys); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}

// TestKilledFirstStartLeavesNothing kills first starts at random moments
// (SIGKILL); a start afterwards finds each database it left whole or
// empty, migrates it to the same schema as a database made in one go, and
// no file but the databases and their WAL side files is left.
func TestKilledFirstStartLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	ctx := context.Background()
	fsys := os.DirFS(realMigrations["coach"])
	want := dump(t, migratedTemp(t, fsys))
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 29))
	for run := range 6 {
		dir := t.TempDir()
		// What an older version's killed first start left.
		testenv.WriteFiles(t, dir, "partial", ".0.db.new-0123456789abcdef", ".0.db.new-0123456789abcdef-wal")
		killAfter := time.Duration(r.IntN(60_000)) * time.Microsecond
		killFirstStarts(t, dir, killAfter)
		names, _ := filepath.Glob(filepath.Join(dir, "*.db"))
		if len(names) == 0 {
			names = []string{filepath.Join(dir, "0.db")} // killed before the first file: start one now
		}
		for _, path := range names {
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("run %d (killed after %v): open %s: %v", run, killAfter, path, err)
			}
			if err := Migrate(ctx, db, "coach", fsys); err != nil {
				t.Fatalf("run %d (killed after %v): migrate %s: %v", run, killAfter, path, err)
			}
			if got := dump(t, db); got != want {
				t.Fatalf("run %d (killed after %v): %s differs from a database made in one go:\n%s", run, killAfter, path, got)
			}
			db.Close()
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			n := strings.TrimSuffix(strings.TrimSuffix(e.Name(), "-wal"), "-shm")
			if !strings.HasSuffix(n, ".db") || strings.HasPrefix(n, ".") {
				t.Errorf("run %d (killed after %v): %s left", run, killAfter, e.Name())
			}
		}
	}
}

// migratedTemp is a new database with fsys's migrations for "coach".
func migratedTemp(tb testing.TB, fsys fs.FS) *sql.DB {
	tb.Helper()
	db := openTemp(tb)
	if err := Migrate(context.Background(), db, "coach", fsys); err != nil {
		tb.Fatal(err)
	}
	return db
}

// killFirstStarts runs TestFirstStartHelper on dir and kills it (SIGKILL)
// after it said it started and killAfter has passed.
func killFirstStarts(t *testing.T, dir string, killAfter time.Duration) {
	t.Helper()
	started := func(out string) bool { return strings.Contains(out, "started") }
	testenv.KillHelper(t, "TestFirstStartHelper", []string{envFirstStartDir + "=" + dir}, started, killAfter)
}
