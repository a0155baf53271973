package sqlite

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

//go:generate go test -run ^TestSchemaSnapshots$ . -args -update-snapshots

// SnapshotName is the file, beside a set of migrations, that holds the
// schema they leave in a new database. [Migrate] applies it to a new
// database instead of them (and records them as applied) when it was
// made from exactly those migrations: the same names with the same
// contents. Otherwise it is ignored, and the migrations run.
const SnapshotName = "schema.snapshot"

// snapshotMigration starts the header line naming one migration and the
// SHA-256 of its contents.
const snapshotMigration = "-- migration "

// snapshotFor returns the snapshot in fsys when it was made from exactly
// migs, else "".
func snapshotFor(fsys fs.FS, migs []migration) string {
	b, err := fs.ReadFile(fsys, SnapshotName)
	if err != nil {
		return ""
	}
	var made []string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), snapshotMigration); ok {
			made = append(made, rest)
		}
	}
	if len(made) != len(migs) {
		return ""
	}
	for i, m := range migs {
		line, err := migrationLine(fsys, m)
		if err != nil || made[i] != line {
			return ""
		}
	}
	return string(b)
}

// migrationLine is m's header line in a snapshot, after snapshotMigration.
func migrationLine(fsys fs.FS, m migration) (string, error) {
	body, err := fs.ReadFile(fsys, m.name)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(body)
	return m.name + " sha256 " + hex.EncodeToString(sum[:]), nil
}

// applySnapshot runs the snapshot's statements in tx and records every
// migration as applied.
func applySnapshot(ctx context.Context, tx *sql.Tx, namespace, snapshot string, migs []migration) error {
	if _, err := tx.ExecContext(ctx, snapshot); err != nil {
		return err
	}
	for _, m := range migs {
		if err := record(ctx, tx, namespace, m); err != nil {
			return err
		}
	}
	return nil
}

// makeSnapshot migrates a new database in a temporary directory with the
// migrations in fsys, one transaction each, and returns the snapshot of
// the schema they leave: its tables, then its indexes, views and
// triggers, each in the order they were made, and the header's
// user_version and application_id. It fails when the migrations fail,
// leave a row in a table (a snapshot holds no rows), or leave a database
// the snapshot does not make again (checked on a second new database:
// e.g. a migration that sets another pragma).
func makeSnapshot(ctx context.Context, fsys fs.FS) ([]byte, error) {
	migs, err := list(fsys)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "paige-snapshot-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	db, err := Open(ctx, filepath.Join(dir, "migrated.db"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := migrateEach(ctx, db, "snapshot", fsys); err != nil {
		return nil, err
	}
	snapshot, err := snapshotOf(ctx, db, fsys, migs)
	if err != nil {
		return nil, err
	}
	again, err := Open(ctx, filepath.Join(dir, "snapshot.db"))
	if err != nil {
		return nil, err
	}
	defer again.Close()
	tx, err := again.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, createMigrationsTable); err != nil {
		return nil, err
	}
	if err := applySnapshot(ctx, tx, "snapshot", string(snapshot), migs); err != nil {
		return nil, fmt.Errorf("%w: %v", errSnapshotDiffers, err)
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	want, err1 := stateOf(ctx, db)
	got, err2 := stateOf(ctx, again)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	if got != want {
		return nil, fmt.Errorf("%w:\n%s\nmigrated:\n%s", errSnapshotDiffers, got, want)
	}
	return snapshot, nil
}

// stateOf is what a snapshot must make again of db, as text: its schema
// and the header fields a migration may set.
func stateOf(ctx context.Context, db *sql.DB) (string, error) {
	var b strings.Builder
	for _, p := range []string{"user_version", "application_id", "auto_vacuum", "encoding", "page_size"} {
		var v string
		if err := db.QueryRowContext(ctx, "PRAGMA "+p).Scan(&v); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s %s\n", p, v)
	}
	rows, err := db.QueryContext(ctx, `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	for rows.Next() {
		var typ, name, tbl, text string
		if err := rows.Scan(&typ, &name, &tbl, &text); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s %s on %s: %s\n", typ, name, tbl, text)
	}
	return b.String(), rows.Err()
}

// snapshotOf writes the snapshot of db, migrated by migs.
func snapshotOf(ctx context.Context, db *sql.DB, fsys fs.FS, migs []migration) ([]byte, error) {
	var b strings.Builder
	b.WriteString("-- Code generated by go generate ./internal/sqlite; DO NOT EDIT.\n")
	b.WriteString("-- The schema the migrations below leave in a new database; sqlite.Migrate\n")
	b.WriteString("-- applies it to a new database instead of them while they are unchanged.\n")
	for _, m := range migs {
		line, err := migrationLine(fsys, m)
		if err != nil {
			return nil, err
		}
		b.WriteString(snapshotMigration + line + "\n")
	}
	if err := writeSchema(ctx, db, &b); err != nil {
		return nil, err
	}
	for _, p := range []string{"user_version", "application_id"} {
		var v int64
		if err := db.QueryRowContext(ctx, "PRAGMA "+p).Scan(&v); err != nil {
			return nil, err
		}
		if v != 0 {
			fmt.Fprintf(&b, "\nPRAGMA %s = %d;\n", p, v)
		}
	}
	return []byte(b.String()), nil
}

// writeSchema writes the statements that make db's schema (without
// schema_migrations and SQLite's own objects), failing if a table holds a
// row.
func writeSchema(ctx context.Context, db *sql.DB, b *strings.Builder) error {
	rows, err := db.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_master
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name != 'schema_migrations'
		ORDER BY type != 'table', rowid`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var typ, name, text string
		if err := rows.Scan(&typ, &name, &text); err != nil {
			rows.Close()
			return err
		}
		if typ == "table" {
			tables = append(tables, name)
		}
		b.WriteString("\n" + text + ";\n")
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, t := range tables {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM "`+strings.ReplaceAll(t, `"`, `""`)+`"`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: %s has %d", errSnapshotRows, t, n)
		}
	}
	return nil
}

// Errors of makeSnapshot: the migrations leave what a snapshot cannot make.
var (
	errSnapshotRows    = errors.New("sqlite: the migrations leave rows in a new database")
	errSnapshotDiffers = errors.New("sqlite: the snapshot does not make the database the migrations leave")
)
