package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/sqlite"
)

// migrationsBefore returns the engine's migrations older than version v.
func migrationsBefore(tb testing.TB, engine string, v int) fs.FS {
	tb.Helper()
	dir := "migrations/" + engine
	names, err := fs.Glob(migrations, dir+"/*.sql")
	if err != nil {
		tb.Fatal(err)
	}
	out := fstest.MapFS{}
	for _, name := range names {
		base := filepath.Base(name)
		if version(base) >= v {
			continue
		}
		b, err := fs.ReadFile(migrations, name)
		if err != nil {
			tb.Fatal(err)
		}
		out[base] = &fstest.MapFile{Data: b}
	}
	return out
}

// upgradeEngine is how testUpgrade reaches one engine: open gives a bare
// connection to a new database and reopen the Store over that database;
// migrate applies migrations to the bare connection.
type upgradeEngine struct {
	name    string
	pg      bool
	open    func(t *testing.T) (db *sql.DB, reopen func(context.Context) (*Store, error))
	migrate func(ctx context.Context, db *sql.DB, namespace string, fsys fs.FS) error
}

var upgradeEngines = []upgradeEngine{
	{name: "sqlite", migrate: sqlite.Migrate, open: func(t *testing.T) (*sql.DB, func(context.Context) (*Store, error)) {
		path := filepath.Join(t.TempDir(), FileName)
		db, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		return db, func(ctx context.Context) (*Store, error) { return OpenSQLite(ctx, path) }
	}},
	{name: "postgres", pg: true, migrate: migratePostgres, open: func(t *testing.T) (*sql.DB, func(context.Context) (*Store, error)) {
		url := ideatetest.PostgresURL(t)
		db, err := sql.Open("pgx", url)
		if err != nil {
			t.Fatal(err)
		}
		return db, func(ctx context.Context) (*Store, error) { return OpenPostgres(ctx, url) }
	}},
}

// testUpgrade upgrades, on SQLite and on PostgreSQL, a database of the
// schema before version v: it applies the older migrations, lets seed
// write into that schema (pg tells the engine), then opens the Store,
// which applies the rest, and hands it to check.
func testUpgrade(t *testing.T, v int, seed func(t *testing.T, db *sql.DB, pg bool), check func(t *testing.T, s *Store)) {
	for _, e := range upgradeEngines {
		t.Run(e.name, func(t *testing.T) {
			ctx := context.Background()
			db, reopen := e.open(t)
			if err := e.migrate(ctx, db, Namespace, migrationsBefore(t, e.name, v)); err != nil {
				t.Fatal(err)
			}
			seed(t, db, e.pg)
			db.Close()
			s, err := reopen(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			check(t, s)
		})
	}
}

const legacyHistory = `[{"role":"user","content":"first"},{"role":"assistant","content":[{"type":"text","text":"second"}]}]`

// TestMigrateMessagesToRows upgrades a database of schema 001 (history as one
// JSON column) and checks the history survives as rows.
func TestMigrateMessagesToRows(t *testing.T) {
	id := NewID()
	testUpgrade(t, 2, func(t *testing.T, db *sql.DB, pg bool) {
		t.Helper()
		insert, args := `INSERT INTO sessions (id, problem, status, created_at, state_json, message_history) VALUES (?, 'p', 'created', ?, '{}', ?)`, []any{id, "2026-01-01T00:00:00.000Z", legacyHistory}
		if pg {
			insert, args = `INSERT INTO sessions (id, problem, status, created_at, state_json, message_history) VALUES ($1, 'p', 'created', now(), '{}', $2)`, []any{id, legacyHistory}
		}
		if _, err := db.Exec(insert, args...); err != nil {
			t.Fatal(err)
		}
	}, func(t *testing.T, s *Store) { checkMigrated(t, s, id) })
}

func checkMigrated(t *testing.T, s *Store, id string) {
	t.Helper()
	got, err := s.GetSession(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := splitAndNormalize(got.Messages)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := splitAndNormalize([]byte(legacyHistory))
	if msgs != want {
		t.Errorf("got %s, want %s", msgs, want)
	}
}

// splitAndNormalize re-encodes a JSON array (PostgreSQL's jsonb reorders keys).
func splitAndNormalize(b []byte) (string, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "", err
	}
	out, err := json.Marshal(v)
	return string(out), err
}
