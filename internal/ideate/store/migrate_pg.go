package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// migratePostgres applies the NNN_name.sql files of fsys not yet recorded in
// schema_migrations for namespace, each in its own transaction, under an
// advisory lock so two servers starting at once do not race.
func migratePostgres(ctx context.Context, db *sql.DB, namespace string, fsys fs.FS) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		namespace  TEXT NOT NULL,
		version    INTEGER NOT NULL,
		name       TEXT NOT NULL,
		applied_at TIMESTAMPTZ NOT NULL,
		PRIMARY KEY (namespace, version))`); err != nil {
		return fmt.Errorf("migrate %s: %w", namespace, err)
	}
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return err
	}
	sort.Slice(names, func(i, j int) bool { return version(names[i]) < version(names[j]) })
	for _, name := range names {
		if err := applyPostgres(ctx, db, namespace, fsys, name); err != nil {
			return fmt.Errorf("migrate %s %s: %w", namespace, name, err)
		}
	}
	return nil
}

func version(name string) int {
	num, _, _ := strings.Cut(name, "_")
	v, _ := strconv.Atoi(num)
	return v
}

func applyPostgres(ctx context.Context, db *sql.DB, namespace string, fsys fs.FS, name string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer rollback(tx)
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "schema_migrations:"+namespace); err != nil {
		return err
	}
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE namespace = $1 AND version = $2`,
		namespace, version(name)).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return nil
	}
	body, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (namespace, version, name, applied_at) VALUES ($1, $2, $3, $4)`,
		namespace, version(name), name, time.Now().UTC()); err != nil {
		return err
	}
	return tx.Commit()
}
