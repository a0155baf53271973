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

// onlyFirst returns the engine's migrations with only 001 in it.
func onlyFirst(tb testing.TB, engine string) fs.FS {
	tb.Helper()
	b, err := fs.ReadFile(migrations, "migrations/"+engine+"/001_init.sql")
	if err != nil {
		tb.Fatal(err)
	}
	return fstest.MapFS{"001_init.sql": {Data: b}}
}

const legacyHistory = `[{"role":"user","content":"first"},{"role":"assistant","content":[{"type":"text","text":"second"}]}]`

// TestMigrateMessagesToRows upgrades a database of schema 001 (history as one
// JSON column) and checks the history survives as rows.
func TestMigrateMessagesToRows(t *testing.T) {
	id := NewID()
	t.Run("sqlite", func(t *testing.T) {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), FileName)
		db, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := sqlite.Migrate(ctx, db, Namespace, onlyFirst(t, "sqlite")); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO sessions (id, problem, status, created_at, state_json, message_history) VALUES (?, 'p', 'created', ?, '{}', ?)`, id, "2026-01-01T00:00:00.000Z", legacyHistory); err != nil {
			t.Fatal(err)
		}
		db.Close()
		s, err := OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		checkMigrated(t, s, id)
	})
	t.Run("postgres", func(t *testing.T) {
		ctx := context.Background()
		url := ideatetest.PostgresURL(t)
		db, err := sql.Open("pgx", url)
		if err != nil {
			t.Fatal(err)
		}
		if err := migratePostgres(ctx, db, Namespace, onlyFirst(t, "postgres")); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO sessions (id, problem, status, created_at, state_json, message_history) VALUES ($1, 'p', 'created', now(), '{}', $2)`, id, legacyHistory); err != nil {
			t.Fatal(err)
		}
		db.Close()
		s, err := OpenPostgres(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		checkMigrated(t, s, id)
	})
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
