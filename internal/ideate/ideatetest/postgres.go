package ideatetest

import (
	"database/sql"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/paige-dev/paige/internal/testenv"
)

// PostgresURL creates an empty database on the test server
// (PAIGE_TEST_POSTGRES_URL, started by scripts/ci/20-postgres.sh) and returns
// its URL; the database is dropped at cleanup. Without the server the test
// is skipped locally and fails in CI (testenv.Service).
func PostgresURL(tb testing.TB) string {
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
		admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})
	return u.String()
}
