// Package store persists GhostPath sessions, rounds, premises and tool calls
// in SQLite (the default: DATA_DIR/ghostpath.db) or PostgreSQL (when
// DATABASE_URL is set), behind the one [core.Repository] contract.
//
// Both engines run the same hand-written SQL through database/sql; a small
// dialect rewrites placeholders and converts times. Each engine has its own
// embedded migrations (migrations/sqlite, migrations/postgres) with the same
// tables: sessions, rounds, premises, tool_calls, every child deleted with its
// session (ON DELETE CASCADE). The session row also holds the enforcement
// state and the Claude message history, written after every agent turn, so a
// restarted server resumes a session where it stopped.
//
// Ids are UUIDv7 strings. An id that is not a UUID is simply not found.
// A Store is safe for concurrent use.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/sqlite"
)

//go:embed migrations
var migrations embed.FS

// Namespace is the schema_migrations namespace of GhostPath's tables.
const Namespace = "ideate"

// FileName is the SQLite file GhostPath uses inside DATA_DIR. It is separate
// from paige.db because the coach owns a different `sessions` table there.
const FileName = "ghostpath.db"

var _ core.Repository = (*Store)(nil)

// Store implements [core.Repository] over SQLite or PostgreSQL.
type Store struct {
	db    *sql.DB
	pg    bool
	stmts map[string]*sql.Stmt // hot per-turn statements by query; read-only after open
	// Now stamps created_at and friends; tests may replace it before use.
	Now func() time.Time
}

// Open opens PostgreSQL when databaseURL is non-empty, else SQLite at
// dataDir/ghostpath.db, and applies the migrations.
func Open(ctx context.Context, dataDir, databaseURL string) (*Store, error) {
	if strings.TrimSpace(databaseURL) != "" {
		return OpenPostgres(ctx, databaseURL)
	}
	return OpenSQLite(ctx, filepath.Join(dataDir, FileName))
}

// OpenSQLite opens (creating) the SQLite database at path and migrates it.
func OpenSQLite(ctx context.Context, path string) (*Store, error) {
	sub, _ := fs.Sub(migrations, "migrations/sqlite")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	// One connection: SQLite has one writer anyway, and queueing in Go hands
	// the connection over at once, where SQLite's busy handler sleeps and
	// collapses under many concurrent sessions. Every statement is short.
	db.SetMaxOpenConns(1)
	if err := sqlite.Migrate(ctx, db, Namespace, sub); err != nil {
		db.Close()
		return nil, err
	}
	st := &Store{db: db, Now: time.Now}
	if err := st.prepare(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return st, nil
}

// OpenPostgres connects to the PostgreSQL server at url (postgres://…) and
// migrates it.
func OpenPostgres(ctx context.Context, url string) (*Store, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(10)
	db.SetConnMaxLifetime(time.Hour)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect postgres: %w", err)
	}
	sub, _ := fs.Sub(migrations, "migrations/postgres")
	if err := migratePostgres(ctx, db, Namespace, sub); err != nil {
		db.Close()
		return nil, err
	}
	st := &Store{db: db, pg: true, Now: time.Now}
	if err := st.prepare(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return st, nil
}

// Engine names the database engine: "sqlite" or "postgres".
func (s *Store) Engine() string {
	if s.pg {
		return "postgres"
	}
	return "sqlite"
}

// Ping checks the database answers a query.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	return s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// Close closes the database.
func (s *Store) Close() error {
	for _, st := range s.stmts {
		st.Close()
	}
	return s.db.Close()
}

// hotQueries are the statements of every agent turn, prepared once at open.
var hotQueries = []string{
	qUpdateProgress, qDeleteMessages, qInsertMessage, qInsertToolCall,
}

// prepare prepares hotQueries. It runs at open, before any transaction:
// with SQLite's single connection, preparing inside a transaction would
// wait for the connection the transaction holds.
func (s *Store) prepare(ctx context.Context) error {
	s.stmts = map[string]*sql.Stmt{}
	for _, q := range hotQueries {
		st, err := s.db.PrepareContext(ctx, s.q(q))
		if err != nil {
			return fmt.Errorf("prepare %q: %w", q, err)
		}
		s.stmts[q] = st
	}
	return nil
}

// txExec runs query (with ? placeholders) in tx, through its prepared
// statement when it is a hot query.
func (s *Store) txExec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if st, ok := s.stmts[query]; ok {
		return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, s.q(query), args...)
}

// NewID returns a new UUIDv7 string.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

func validID(id string) bool {
	_, err := uuid.Parse(id)
	return err == nil && len(id) == 36
}

// q rewrites ? placeholders to $n for PostgreSQL.
func (s *Store) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ts converts a time to the engine's column value.
func (s *Store) ts(t time.Time) any {
	if s.pg {
		return t.UTC()
	}
	return sqlite.FormatTime(t)
}

func (s *Store) tsPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return s.ts(*t)
}

func (s *Store) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// dbTime scans a TEXT (SQLite) or TIMESTAMPTZ (PostgreSQL) column.
type dbTime struct{ t *time.Time }

// Scan implements sql.Scanner.
func (d dbTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		return nil
	case time.Time:
		*d.t = v.UTC()
	case string:
		return d.parse(v)
	case []byte:
		return d.parse(string(v))
	default:
		return fmt.Errorf("store: cannot scan %T as time", src)
	}
	return nil
}

func (d dbTime) parse(s string) error {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("store: bad time %q: %w", s, err)
	}
	*d.t = t.UTC()
	return nil
}

// nullTime scans a nullable time column into a *time.Time.
type nullTime struct{ t **time.Time }

// Scan implements sql.Scanner.
func (n nullTime) Scan(src any) error {
	if src == nil {
		*n.t = nil
		return nil
	}
	var t time.Time
	if err := (dbTime{&t}).Scan(src); err != nil {
		return err
	}
	*n.t = &t
	return nil
}

func notFound(kind, id string) error {
	return fmt.Errorf("%s %s: %w", kind, id, core.ErrNotFound)
}

func rollback(tx *sql.Tx) { _ = tx.Rollback() }

func affected(res sql.Result, kind, id string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return notFound(kind, id)
	}
	return nil
}

var errNoRows = sql.ErrNoRows

func isNoRows(err error) bool { return errors.Is(err, errNoRows) }
