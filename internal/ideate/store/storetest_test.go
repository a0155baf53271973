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
