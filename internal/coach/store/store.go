// Package store persists the coaching state of Paige in SQLite:
// `{DATA_DIR}/paige.db`, the 10 tables of spec stories 2 and 4 (sessions,
// plans, phases, phase_hints, progress_events, dreyfus_assessments,
// knowledge_gaps, kata_specs, action_log, api_call_log).
//
// # Invariants
//
//   - The schema is created by embedded, versioned migrations
//     (migrations/NNN_*.sql, namespace "coach"); opening twice is a no-op.
//   - Ids are UUID v7 text, timestamps ISO 8601 UTC text with milliseconds
//     (sqlite.FormatTime), JSON columns hold valid JSON (CHECK constraints).
//   - Foreign keys are enforced and cascade: deleting a session removes its
//     plans, gaps, actions and API calls; deleting a plan removes its phases
//     and their hints and progress events. A row whose parent does not exist
//     is rejected with an error wrapping [ErrNotFound] (EC-08).
//   - Every method runs in one transaction (BeginTx → defer Rollback →
//     unexported helper → Commit); reads use read-only transactions, writes
//     take the write lock up front (BEGIN IMMEDIATE) and wait up to
//     sqlite.BusyTimeout for it rather than failing (EC-07).
//   - A Store is safe for concurrent use.
//
// Every active session has a marker file ([marker]) in
// DATA_DIR/coaching-active, for the SessionStart hook: a transaction that
// makes a session active writes it before it commits, one that ends a
// session removes it after it commits, and [OpenFile] restores the markers
// of the sessions the database holds as active and prunes the others.
//
// Methods that look a row up by id return an error wrapping [ErrNotFound]
// when it does not exist; methods that validate input return an error
// wrapping [ErrInvalid].
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/marker"
	"github.com/paige-dev/paige/internal/sqlite"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// FileName is the database file inside DATA_DIR (FR-010).
const FileName = "paige.db"

// Namespace is the schema_migrations namespace of the coach schema.
const Namespace = "coach"

// Errors returned (wrapped) by Store methods.
var (
	// ErrNotFound means the row, or the parent row an insert refers to, does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrInvalid means the input violates the schema (bad status, empty title, invalid JSON, …).
	ErrInvalid = errors.New("store: invalid input")
	// ErrCorrupt is sqlite.ErrCorrupt: the database file is not usable (EC-06).
	ErrCorrupt = sqlite.ErrCorrupt
)

// Store is the coaching database. Create it with [Open]; Close it once.
type Store struct {
	db *sql.DB
	// dataDir holds the database file and the coaching markers.
	dataDir string
	// Now returns the current time; tests replace it. It must be safe for
	// concurrent use. Set it before the Store is shared.
	Now func() time.Time
	// NewID returns a fresh row id; UUID v7 by default. Tests may replace it.
	NewID func() string

	insertActionOnce sync.Once
	insertActionStmt *sql.Stmt // nil if preparing failed: plain Exec then
}

// Open opens (creating if needed) DATA_DIR/paige.db with WAL, foreign keys
// and a busy timeout, and applies the coach migrations. A file that is not a
// SQLite database yields an error wrapping [ErrCorrupt]; the caller should
// report it and exit (EC-06, no auto-recovery).
func Open(ctx context.Context, dataDir string) (*Store, error) {
	return OpenFile(ctx, filepath.Join(dataDir, FileName))
}

// OpenFile is [Open] for an explicit database path; the coaching markers
// live beside the file.
func OpenFile(ctx context.Context, path string) (*Store, error) {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("coach store: %w", err)
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("coach store: %w", err)
	}
	if err := sqlite.Migrate(ctx, db, Namespace, sub); err != nil {
		db.Close()
		if isCorrupt(err) {
			return nil, fmt.Errorf("coach store %s: %w (%v)", path, ErrCorrupt, err)
		}
		return nil, fmt.Errorf("coach store: %w", err)
	}
	s := &Store{db: db, dataDir: filepath.Dir(path), Now: time.Now, NewID: newID}
	if err := s.syncMarkers(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("coach store: %w", err)
	}
	return s, nil
}

// syncMarkers writes the missing marker of every session the database
// holds as active (a crash, or a version before markers, may have left one
// out) and
// prunes the others ([marker.Prune]: a marker a concurrent transaction has
// just written survives).
func (s *Store) syncMarkers(ctx context.Context) error {
	active, err := s.Sessions(ctx, SessionFilter{Status: coach.SessionActive})
	if err != nil {
		return err
	}
	have := map[string]bool{}
	if list, err := marker.List(s.dataDir); err == nil {
		for _, m := range list {
			have[m.SessionID] = true
		}
	}
	ids := make(map[string]bool, len(active))
	for _, sess := range active {
		ids[sess.ID] = true
		if have[sess.ID] {
			continue
		}
		if err := s.writeMarker(sess); err != nil {
			return err
		}
	}
	_ = marker.Prune(s.dataDir, func(id string) bool { return ids[id] }, s.Now()) // a stale marker costs one hook run, no more
	return nil
}

// writeMarker records sess as active for the SessionStart hook.
func (s *Store) writeMarker(sess coach.Session) error {
	return marker.Write(s.dataDir, marker.Marker{SessionID: sess.ID, Project: sess.ProjectDir, At: s.Now().UTC()})
}

// Close closes the database. Calling it again returns nil.
func (s *Store) Close() error {
	s.insertActionOnce.Do(func() {}) // orders the read below after any preparation; none after Close
	if s.insertActionStmt != nil {
		_ = s.insertActionStmt.Close()
	}
	return s.db.Close()
}

// DB returns the underlying handle for read-only reporting queries (the
// dashboard's aggregations); writes must go through Store methods.
func (s *Store) DB() *sql.DB { return s.db }

func newID() string { return uuid.Must(uuid.NewV7()).String() }

// now is the injected clock, UTC, truncated to the milliseconds stored.
func (s *Store) now() time.Time { return s.Now().UTC().Truncate(time.Millisecond) }

// read runs f in a read-only transaction.
func (s *Store) read(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Update runs f in one write transaction and commits it when f returns nil;
// any error rolls everything back. The coaching pipeline uses it to insert a
// plan, its phases and their hints atomically. tx must not be used after f
// returns.
func (s *Store) Update(ctx context.Context, f func(tx *Tx) error) error {
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer sqlTx.Rollback()
	tx := &Tx{tx: sqlTx, s: s}
	if err := f(tx); err != nil {
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return err
	}
	for _, after := range tx.afterCommit {
		after()
	}
	return nil
}

// update runs f in one [Store.Update] transaction and returns what f
// returned with the transaction's error: the shape of every Store write
// method that is its Tx method in a transaction of its own.
func update[T any](ctx context.Context, s *Store, f func(tx *Tx) (T, error)) (T, error) {
	var out T
	err := s.Update(ctx, func(tx *Tx) error {
		var err error
		out, err = f(tx)
		return err
	})
	return out, err
}

// Tx is a write transaction handed to [Store.Update]. Its methods mirror the
// Store's write methods and see each other's uncommitted rows.
type Tx struct {
	tx *sql.Tx
	s  *Store
	// afterCommit runs, in order, once the transaction has committed.
	afterCommit []func()
}

// parseTime reads an ISO 8601 column.
func parseTime(v string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("bad timestamp %q: %w", v, err)
	}
	return t.UTC(), nil
}

func parseNullTime(v sql.NullString) (*time.Time, error) {
	if !v.Valid {
		return nil, nil
	}
	t, err := parseTime(v.String)
	return &t, err
}

func formatNullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return sqlite.FormatTime(*t)
}

// nullString maps "" to NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func intPtr(v sql.NullInt64) *int {
	if !v.Valid {
		return nil
	}
	i := int(v.Int64)
	return &i
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}
