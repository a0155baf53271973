package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// Scanner is one row to read: a *sql.Rows at a row, or a *sql.Row.
type Scanner interface{ Scan(dest ...any) error }

// Querier runs queries: a *sql.DB, *sql.Tx or *sql.Conn.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// QueryAll runs query with args on db (any database/sql database, not
// only SQLite) and returns what scan reads from each row, in order and
// never nil. Its errors start with what, the operation's name.
func QueryAll[T any](ctx context.Context, db Querier, what, query string, args []any, scan func(Scanner) (T, error)) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}
