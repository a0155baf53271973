package cli

import (
	"context"
	"database/sql"
	"path/filepath"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/ideate/store"
	"github.com/paige-dev/paige/internal/learn/learndb"
	"github.com/paige-dev/paige/internal/memory"
)

// pending is a value being made in the background.
type pending[T any] struct {
	done  chan struct{}
	v     T
	err   error
	taken bool
}

func startPending[T any](f func() (T, error)) *pending[T] {
	p := &pending[T]{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.v, p.err = f()
	}()
	return p
}

// take waits for the value; whoever takes it owns it (and closes it).
func (p *pending[T]) take() (T, error) {
	<-p.done
	p.taken = true
	return p.v, p.err
}

// closeUntaken waits for the value and, unless it was taken, closes it
// with closeFn when it was made.
func (p *pending[T]) closeUntaken(closeFn func(T) error) {
	<-p.done
	if !p.taken && p.err == nil {
		_ = closeFn(p.v)
	}
}

// databases are the stores `paige serve` opens besides the coach's, opened
// at once when serve starts: opening applies each one's migrations, most
// of the start's CPU on a fresh DATA_DIR, and on two cores they need not
// wait for each other or for the coach's database. Each wiring step takes
// its own; wire closes the ones nobody took when it fails.
type databases struct {
	ideate *pending[*store.Store]
	learn  *pending[*sql.DB]
	memory *pending[memory.Store]
}

// openDatabases starts opening GhostPath's store (DATA_DIR/ghostpath.db or
// DATABASE_URL), learn's database (DATA_DIR/learn.db) and the memory
// store (embedded, or the configured Chroma).
func openDatabases(ctx context.Context, cfg config.Config, a *app) *databases {
	databaseURL := ideateSettingsFrom(cfg).databaseURL
	memLog := a.log.With("component", "coach").With("component", "memory")
	return &databases{
		ideate: startPending(func() (*store.Store, error) { return store.Open(ctx, cfg.DataDir, databaseURL) }),
		learn: startPending(func() (*sql.DB, error) {
			return learndb.Open(ctx, filepath.Join(cfg.DataDir, learndb.FileName))
		}),
		memory: startPending(func() (memory.Store, error) { return memory.FromConfig(ctx, cfg, memLog) }),
	}
}

// closeUntaken closes every store no wiring step took.
func (d *databases) closeUntaken() {
	d.ideate.closeUntaken(func(s *store.Store) error { return s.Close() })
	d.learn.closeUntaken(func(db *sql.DB) error { return db.Close() })
	d.memory.closeUntaken(func(m memory.Store) error { return m.Close() })
}

// openedDatabases returns the databases serve is opening, starting them on
// first use (tests that wire one step on its own).
func (a *app) openedDatabases(ctx context.Context) *databases {
	if a.dbs == nil {
		a.dbs = openDatabases(ctx, a.cfg, a)
	}
	return a.dbs
}
