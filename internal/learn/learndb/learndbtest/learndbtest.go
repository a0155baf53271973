// Package learndbtest gives tests a migrated learn.db of their own.
package learndbtest

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/learn/learndb"
)

// Open opens a new, migrated learn.db in a temporary directory of tb,
// closed when tb ends; an error fails tb.
func Open(tb testing.TB) *sql.DB {
	tb.Helper()
	db, err := learndb.Open(context.Background(), filepath.Join(tb.TempDir(), learndb.FileName))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}
