// Package sqlite opens SQLite databases the way every Paige store needs them
// (WAL journal, foreign keys on, a busy timeout so concurrent writers wait
// instead of failing) and applies embedded, versioned migrations.
//
// Every connection runs with synchronous=NORMAL: a committed transaction
// is in the WAL file when Commit returns and survives a crash or kill of
// the process (not a power loss before the next checkpoint), without an
// fsync per commit.
//
// Migrations are files named NNN_description.sql in an [fs.FS], recorded in
// schema_migrations under a namespace, so several capabilities can keep
// their schemas in one file without colliding. Applying them twice is a
// no-op. A namespace with none recorded yet (a new database) gets all of
// them in one transaction; one with some recorded gets each missing one in
// its own transaction, in version order.
//
// [QueryAll] reads every row of a query on any database/sql database.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// BusyTimeout is how long a writer waits for a lock before SQLITE_BUSY.
const BusyTimeout = 10 * time.Second

// ErrCorrupt is returned by [Open] when the file is not a usable SQLite database (EC-06).
var ErrCorrupt = errors.New("sqlite: database file is corrupt or not a SQLite database")

// Open opens (creating if needed) the database at path, with its parent
// directory, after removing the temporary databases an older Paige left
// beside it ([RemoveLeftovers]). The returned *sql.DB is safe for
// concurrent use.
func Open(ctx context.Context, path string) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create database directory: %w", err)
	}
	RemoveLeftovers(path)
	db, err := sql.Open("sqlite", dsn(path, "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)"))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	// Reading the schema touches the file header: a corrupt file fails here.
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		db.Close()
		if isCorrupt(err) {
			return nil, fmt.Errorf("open database %s: %w (%v); move it aside to start fresh", path, ErrCorrupt, err)
		}
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return db, nil
}

// dsn is the data source name of the database at path with the pragmas
// given on every connection (the driver runs busy_timeout first, the rest
// in lexical order) and transactions that take the write lock.
func dsn(path string, pragmas ...string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	q.Add("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

func isCorrupt(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "not a database") || strings.Contains(s, "malformed") || strings.Contains(s, "corrupt")
}

// createMigrationsTable creates the table migrations are recorded in.
const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
		namespace  TEXT NOT NULL,
		version    INTEGER NOT NULL,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL,
		PRIMARY KEY (namespace, version))`

// Migrate applies, in version order, every migration in fsys not yet
// recorded for namespace.
//
// It first looks at what is recorded, in one transaction: when every
// migration is, there is nothing to do; when none is (a new database),
// it applies them all in that transaction, one commit instead of one per
// migration. Otherwise (some recorded), or when that transaction fails,
// it rolls back and applies each missing migration in its own
// transaction, so a database migrated in part, or a migration that fails,
// ends in the same state with the same error as that path alone
// ([migrateEach]).
func Migrate(ctx context.Context, db *sql.DB, namespace string, fsys fs.FS) error {
	migs, err := list(fsys)
	if err == nil && migrateAtOnce(ctx, db, namespace, fsys, migs) {
		return nil
	}
	return migrateEach(ctx, db, namespace, fsys)
}

// migrateAtOnce reports whether the namespace is fully migrated after one
// transaction: it already was, or nothing was recorded and every
// migration was applied and recorded in it. False leaves the database as
// it was.
func migrateAtOnce(ctx context.Context, db *sql.DB, namespace string, fsys fs.FS, migs []migration) bool {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, createMigrationsTable); err != nil {
		return false
	}
	recorded, err := recordedVersions(ctx, tx, namespace)
	if err != nil {
		return false
	}
	if len(recorded) > 0 {
		for _, m := range migs {
			if !recorded[m.version] {
				return false // migrated in part: one transaction per missing migration
			}
		}
		return true // up to date; the rollback undoes nothing
	}
	for _, m := range migs {
		if err := applyIn(ctx, tx, namespace, fsys, m); err != nil {
			return false
		}
		if violated, err := foreignKeysViolated(ctx, tx); err != nil || violated {
			return false // its own commit would fail on a deferred foreign key
		}
	}
	return tx.Commit() == nil
}

// foreignKeysViolated reports whether a row in tx's view breaks a foreign
// key: the migration just applied would fail to commit on its own (a
// deferred constraint), even if a later one mended the row.
func foreignKeysViolated(ctx context.Context, tx *sql.Tx) (bool, error) {
	rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	return rows.Next(), rows.Err()
}

// recordedVersions returns the versions recorded for namespace.
func recordedVersions(ctx context.Context, tx *sql.Tx, namespace string) (map[int]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT version FROM schema_migrations WHERE namespace = ?`, namespace)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out[v] = true
	}
	return out, rows.Err()
}

// migrateEach applies every migration not yet recorded for namespace, each
// in its own transaction, in version order.
func migrateEach(ctx context.Context, db *sql.DB, namespace string, fsys fs.FS) error {
	if _, err := db.ExecContext(ctx, createMigrationsTable); err != nil {
		return fmt.Errorf("migrate %s: %w", namespace, err)
	}
	migs, err := list(fsys)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", namespace, err)
	}
	for _, m := range migs {
		if err := apply(ctx, db, namespace, fsys, m); err != nil {
			return fmt.Errorf("migrate %s %s: %w", namespace, m.name, err)
		}
	}
	return nil
}

type migration struct {
	version int
	name    string
}

func list(fsys fs.FS) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var out []migration
	seen := map[int]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		num, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %q: name must start with a number", e.Name())
		}
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %q and %q share version %d", prev, e.Name(), v)
		}
		seen[v] = e.Name()
		out = append(out, migration{v, e.Name()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// apply applies m in its own transaction unless it is recorded.
func apply(ctx context.Context, db *sql.DB, namespace string, fsys fs.FS, m migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE namespace = ? AND version = ?`,
		namespace, m.version).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return nil
	}
	if err := applyIn(ctx, tx, namespace, fsys, m); err != nil {
		return err
	}
	return tx.Commit()
}

// applyIn runs m's statements in tx and records it.
func applyIn(ctx context.Context, tx *sql.Tx, namespace string, fsys fs.FS, m migration) error {
	body, err := fs.ReadFile(fsys, m.name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	return record(ctx, tx, namespace, m)
}

// record records m as applied now.
func record(ctx context.Context, tx *sql.Tx, namespace string, m migration) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (namespace, version, name, applied_at) VALUES (?, ?, ?, ?)`,
		namespace, m.version, m.name, Now())
	return err
}

// Now returns the current time as the ISO 8601 UTC text every Paige table
// stores (millisecond precision, "Z" suffix).
func Now() string { return FormatTime(time.Now()) }

// FormatTime formats t as ISO 8601 UTC with milliseconds, e.g. 2026-02-10T12:00:00.000Z.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// OpenReadOnly opens the database at path read-only (mode=ro, query_only)
// with a 250 ms busy timeout, for processes that only look (hooks, doctor).
// It never creates the file.
func OpenReadOnly(path string) (*sql.DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(250)")
	q.Add("_pragma", "query_only(1)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s read-only: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}
