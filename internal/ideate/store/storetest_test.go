package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/ideatetest"
)

// engines returns an opener per engine; each call gives a fresh, empty
// database (a new SQLite file, a new PostgreSQL database dropped at cleanup).
func engines() map[string]func(testing.TB) *Store {
	return map[string]func(testing.TB) *Store{
		"sqlite":   openTestSQLite,
		"postgres": openTestPostgres,
	}
}

// onEveryEngine runs f on a new store of each engine, as a subtest named
// after the engine.
func onEveryEngine(t *testing.T, f func(t *testing.T, s *Store)) {
	for engine, open := range engines() {
		t.Run(engine, func(t *testing.T) { f(t, open(t)) })
	}
}

func openTestSQLite(tb testing.TB) *Store {
	tb.Helper()
	s, err := OpenSQLite(context.Background(), filepath.Join(tb.TempDir(), FileName))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func openTestPostgres(tb testing.TB) *Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := OpenPostgres(ctx, ideatetest.PostgresURL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
