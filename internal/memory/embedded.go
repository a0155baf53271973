package memory

import (
	"context"
	"database/sql"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	pembed "github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Embedded is the default backend: memories in a SQLite file, searched
// brute force over an in-memory slab of their embeddings.
//
// The slab is loaded lazily on first use (and again after a failure). When
// the embedder changed since the memories were stored (its ID differs), all
// memories are re-embedded from their content on load: nothing is lost when
// switching embedders.
type Embedded struct {
	db   *sql.DB
	emb  pembed.Embedder
	log  *slog.Logger
	now  func() time.Time
	addM sync.Mutex // serialises AddMemories so numbering cannot race

	mu  sync.RWMutex
	idx *index // nil until loaded; guarded by mu

	available atomic.Bool
}

var _ Store = (*Embedded)(nil)

// OpenEmbedded opens (creating) the memory database at path and loads it.
// It fails only when the database cannot be opened or migrated; a failing
// embedder leaves the store degraded until a later call succeeds.
func OpenEmbedded(ctx context.Context, path string, emb pembed.Embedder, opts *Options) (*Embedded, error) {
	sub, _ := fs.Sub(migrations, "migrations")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("memory: open %s: %w", path, err)
	}
	if err := sqlite.Migrate(ctx, db, "memory", sub); err != nil {
		db.Close()
		return nil, fmt.Errorf("memory: migrate %s: %w", path, err)
	}
	e := &Embedded{db: db, emb: emb, log: opts.logger(), now: opts.now()}
	if _, err := e.ensure(ctx); err == nil {
		e.log.Info("memory: embedded store ready", "path", path, "memories", e.count(), "embedder", emb.ID())
	}
	return e, nil
}

// Close closes the database.
func (e *Embedded) Close() error { return e.db.Close() }

// IsMemoryAvailable reports whether the last operation succeeded.
func (e *Embedded) IsMemoryAvailable() bool { return e.available.Load() }

func (e *Embedded) count() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.idx == nil {
		return 0
	}
	return len(e.idx.rows)
}

// ensure returns the loaded index, loading it when needed.
func (e *Embedded) ensure(ctx context.Context) (*index, error) {
	e.mu.RLock()
	idx := e.idx
	e.mu.RUnlock()
	if idx != nil {
		return idx, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.idx != nil {
		return e.idx, nil
	}
	idx, err := e.load(ctx)
	if err != nil {
		e.degrade("load", err)
		return nil, err
	}
	e.idx = idx
	e.available.Store(true)
	return idx, nil
}

// degrade marks the store unavailable and logs a warning (D38).
func (e *Embedded) degrade(op string, err error) {
	e.available.Store(false)
	e.log.Warn("memory: embedded store degraded, answering the empty result", "op", op, "err", err)
}

// load reads every memory; it re-embeds them when the embedder changed.
func (e *Embedded) load(ctx context.Context) (*index, error) {
	var stored string
	err := e.db.QueryRowContext(ctx, `SELECT value FROM memory_meta WHERE key = 'embedder'`).Scan(&stored)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	recs, vecs, err := e.readAll(ctx)
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 && stored != e.emb.ID() {
		e.log.Info("memory: embedder changed, re-embedding memories", "from", stored, "to", e.emb.ID(), "memories", len(recs))
		if vecs, err = e.reembed(ctx, recs); err != nil {
			return nil, fmt.Errorf("re-embed with %s: %w", e.emb.ID(), err)
		}
	}
	if stored != e.emb.ID() {
		if _, err := e.db.ExecContext(ctx, `INSERT INTO memory_meta (key, value) VALUES ('embedder', ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, e.emb.ID()); err != nil {
			return nil, err
		}
	}
	idx := newIndex()
	for i, r := range recs {
		if idx.dims != 0 && len(vecs[i]) != idx.dims {
			return nil, fmt.Errorf("memory %s has %d dimensions, want %d", r.ID, len(vecs[i]), idx.dims)
		}
		idx.add(r, vecs[i])
	}
	return idx, nil
}

func (e *Embedded) readAll(ctx context.Context) ([]record, [][]float32, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT id, session_id, project, created_at, importance, tags, content, embedding
		FROM memories ORDER BY rowid`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var recs []record
	var vecs [][]float32
	for rows.Next() {
		var r record
		var blob []byte
		m := &r.Metadata
		if err := rows.Scan(&r.ID, &m.SessionID, &m.Project, &m.CreatedAt, &m.Importance, &m.Tags, &r.Content, &blob); err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
		vecs = append(vecs, decodeVector(blob))
	}
	return recs, vecs, rows.Err()
}

// reembed embeds every record's content again and stores the new vectors.
func (e *Embedded) reembed(ctx context.Context, recs []record) ([][]float32, error) {
	vecs, err := e.emb.Embed(ctx, contents(recs))
	if err != nil {
		return nil, err
	}
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	for i, r := range recs {
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET embedding = ? WHERE id = ?`, encodeVector(vecs[i]), r.ID); err != nil {
			return nil, err
		}
	}
	return vecs, tx.Commit()
}

// AddMemories embeds and stores memories; see [Store].
func (e *Embedded) AddMemories(ctx context.Context, sessionID, project string, memories []Memory) (int, error) {
	if sessionID == "" {
		return 0, ErrNoSession
	}
	if len(memories) == 0 {
		return 0, nil
	}
	e.addM.Lock()
	defer e.addM.Unlock()
	idx, err := e.ensure(ctx)
	if err != nil {
		return 0, ctx.Err()
	}
	e.mu.RLock()
	first, dims := idx.maxIdx[sessionID], idx.dims
	e.mu.RUnlock()
	recs := buildRecords(sessionID, project, sqlite.FormatTime(e.now()), first, memories)
	vecs, err := e.emb.Embed(ctx, contents(recs))
	if err == nil {
		err = checkDims(vecs, dims)
	}
	if err == nil {
		err = e.insert(ctx, recs, vecs)
	}
	if err != nil {
		e.degrade("add", err)
		return 0, ctx.Err()
	}
	e.mu.Lock()
	for i, r := range recs {
		idx.add(r, vecs[i])
	}
	e.mu.Unlock()
	e.available.Store(true)
	return len(recs), nil
}

func checkDims(vecs [][]float32, dims int) error {
	for _, v := range vecs {
		if dims == 0 {
			dims = len(v)
		}
		if len(v) != dims || dims == 0 {
			return fmt.Errorf("embedding has %d dimensions, store has %d", len(v), dims)
		}
	}
	return nil
}

func (e *Embedded) insert(ctx context.Context, recs []record, vecs [][]float32) error {
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO memories
		(id, session_id, project, created_at, importance, tags, content, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, r := range recs {
		m := r.Metadata
		if _, err := stmt.ExecContext(ctx, r.ID, m.SessionID, m.Project, m.CreatedAt, m.Importance, m.Tags, r.Content, encodeVector(vecs[i])); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// QueryMemories searches the slab; see [Store].
func (e *Embedded) QueryMemories(ctx context.Context, q Query) ([]Result, error) {
	idx, err := e.ensure(ctx)
	if err != nil {
		return nil, ctx.Err()
	}
	vecs, err := e.emb.Embed(ctx, []string{q.Text})
	if err != nil {
		e.degrade("query", err)
		return nil, ctx.Err()
	}
	e.available.Store(true)
	e.mu.RLock()
	defer e.mu.RUnlock()
	hits := idx.search(vecs[0], nResults(q.NResults), q.Project)
	out := make([]Result, len(hits))
	for i, h := range hits {
		r := idx.rows[h.row]
		out[i] = Result{ID: r.ID, Content: r.Content, Metadata: r.Metadata, Distance: max(0, 1-float64(h.sim))}
	}
	return out, nil
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
