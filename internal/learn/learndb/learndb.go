// Package learndb opens learn's own SQLite database (DATA_DIR/learn.db):
// the preprompts table of the context assembler and the chat sessions and
// messages tables. It is a separate file from paige.db because the coach
// owns a different sessions table there.
package learndb

import (
	"context"
	"database/sql"
	"embed"
	"io/fs"

	"github.com/paige-dev/paige/internal/sqlite"
)

// FileName is the database file name inside DATA_DIR.
const FileName = "learn.db"

//go:embed migrations/*.sql
var migrations embed.FS

// Open opens (creating if needed) the database at path and applies learn's
// migrations (namespace "learn").
func Open(ctx context.Context, path string) (*sql.DB, error) {
	sub, _ := fs.Sub(migrations, "migrations")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := sqlite.Migrate(ctx, db, "learn", sub); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
