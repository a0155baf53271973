package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Queryer runs a query; *sql.DB and *sql.Tx satisfy it.
type Queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// querier is what the find helpers need; *sql.Tx satisfies it.
type querier interface {
	Queryer
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Scanner is *sql.Row or *sql.Rows: what a scan function of [QueryAll]
// reads one row from.
type Scanner interface{ Scan(dest ...any) error }

// QueryAll runs query on q (a *sql.DB or *sql.Tx) and scans every row with
// scan, in order. No rows give a nil slice. The store's list methods and the
// dashboard's reporting queries on [Store.DB] share it.
func QueryAll[T any](ctx context.Context, q Queryer, scan func(Scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// execFound runs query, an UPDATE or DELETE of the row what id; when no row
// is affected it returns an error wrapping [ErrNotFound].
func execFound(ctx context.Context, q querier, what, id, query string, args ...any) error {
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s %q: %w", what, id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(what, id)
	}
	return nil
}
