package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/paige-dev/paige/internal/testenv"
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

// FreshPostgresURL creates an empty database on the test server and returns
// its URL; the database is dropped at cleanup.
func freshPostgresURL(tb testing.TB) string {
	tb.Helper()
	base := testenv.Service(tb, "PAIGE_TEST_POSTGRES_URL", "PostgreSQL")
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatal(err)
	}
	defer admin.Close()
	name := "gp_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		tb.Fatalf("create database: %v", err)
	}
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + name
	tb.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			return
		}
		defer admin.Close()
		admin.Exec(fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
	})
	return u.String()
}

func openTestPostgres(tb testing.TB) *Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := OpenPostgres(ctx, freshPostgresURL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
