package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestOpenPragmasAndMigrate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nested", "dir", "test.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := db.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign_keys = %d, %v; want 1", fk, err)
	}
	var busy int
	if err := db.QueryRow("PRAGMA busy_timeout").Scan(&busy); err != nil || busy != int(BusyTimeout.Milliseconds()) {
		t.Fatalf("busy_timeout = %d, %v", busy, err)
	}
	fsys := fstest.MapFS{
		"001_a.sql": {Data: []byte("CREATE TABLE a (id TEXT PRIMARY KEY);")},
		"002_b.sql": {Data: []byte("CREATE TABLE b (id TEXT PRIMARY KEY, a_id TEXT REFERENCES a(id) ON DELETE CASCADE);")},
	}
	for i := 0; i < 2; i++ { // idempotent
		if err := Migrate(ctx, db, "test", fsys); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	var n int
	db.QueryRow("SELECT count(*) FROM schema_migrations WHERE namespace='test'").Scan(&n)
	if n != 2 {
		t.Fatalf("recorded %d migrations, want 2", n)
	}
	if _, err := db.Exec("INSERT INTO b VALUES ('x', 'missing')"); err == nil {
		t.Fatal("foreign key not enforced")
	}
}

func TestMigrateBadName(t *testing.T) {
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = Migrate(context.Background(), db, "x", fstest.MapFS{"abc.sql": {Data: []byte("SELECT 1")}})
	if err == nil {
		t.Fatal("want error for a migration without a version")
	}
}

func TestOpenCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "paige.db")
	junk := make([]byte, 8192)
	for i := range junk {
		junk[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, junk, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open(corrupt) = %v, want ErrCorrupt", err)
	}
}

// Every pooled connection, so every writer, runs in WAL mode with
// synchronous=NORMAL: a commit survives a kill of the process (the WAL is
// in the OS's page cache) without an fsync per transaction. The pragmas sit
// in the DSN, so connections opened later get them too.
func TestOpenEveryConnectionWALNormal(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var conns []*sql.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range 3 { // held at once: three distinct connections
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var mode string
		var sync int
		if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("connection %d: journal_mode = %q, %v; want wal", i, mode, err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil || sync != 1 {
			t.Errorf("connection %d: synchronous = %d, %v; want 1 (NORMAL)", i, sync, err)
		}
	}
}

// TestQueryAll: the rows in order, an empty (not nil) slice for none, and
// the query's, a scan's and the rows' errors named by the operation.
func TestQueryAll(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (n INTEGER, s TEXT); INSERT INTO t VALUES (1, 'a'), (2, NULL), (3, 'c')`); err != nil {
		t.Fatal(err)
	}
	scanInt := func(row Scanner) (int, error) {
		var n int
		err := row.Scan(&n)
		return n, err
	}
	got, err := QueryAll(ctx, db, "list", `SELECT n FROM t WHERE n > ? ORDER BY n DESC`, []any{1}, scanInt)
	if err != nil || !slices.Equal(got, []int{3, 2}) {
		t.Errorf("QueryAll = %v, %v; want [3 2]", got, err)
	}
	if got, err := QueryAll(ctx, db, "none", `SELECT n FROM t WHERE n > 9`, nil, scanInt); err != nil || got == nil || len(got) != 0 {
		t.Errorf("no rows: %#v, %v; want an empty slice", got, err)
	}
	if _, err := QueryAll(ctx, db, "bad query", `SELECT nope FROM t`, nil, scanInt); err == nil || !strings.HasPrefix(err.Error(), "bad query: ") {
		t.Errorf("bad query: %v", err)
	}
	scanText := func(row Scanner) (string, error) {
		var s string
		err := row.Scan(&s)
		return s, err
	}
	if got, err := QueryAll(ctx, db, "bad scan", `SELECT s FROM t ORDER BY n`, nil, scanText); err == nil || got != nil || !strings.HasPrefix(err.Error(), "bad scan: ") {
		t.Errorf("NULL into a string: %v, %v; want the scan's error", got, err)
	}
}
