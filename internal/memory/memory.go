// Package memory is Paige's cross-session memory (spec story 8): coaching
// memories stored with metadata and recalled by semantic similarity.
//
// One [Store] interface, two backends:
//
//   - [Embedded] (default): a SQLite file under DATA_DIR (memory.db) holding
//     every memory and its embedding, plus an in-memory float32 slab scanned
//     brute force at query time (≤ 2 ms of CPU over 100,000 memories, see
//     BenchmarkQuery100k). No service to run.
//   - [Chroma]: a ChromaDB server over its HTTP API v2 (CHROMADB_URL, or
//     PAIGE_MEMORY=chroma), collection paige_memories. ChromaDB 1.x computes
//     no embeddings server-side, so Paige supplies them (the spec's D35 is
//     replaced; see NOTES.md).
//
// Embeddings come from internal/embedding (lexical by default).
//
// # Contract shared by both backends
//
// Ids are mem_{sessionId}_{index}. The spec numbers from 0 within each call;
// a second call for the same session would overwrite the first, so numbering
// continues after the session's highest existing index instead (NOTES.md).
// Metadata is session_id, project, created_at (ISO 8601 UTC), importance and
// tags (comma-joined, commas inside tags stripped, EC-50). Distances are
// cosine distances (1 − cosine similarity; lower is more similar).
//
// Degradation (D38): a backend that cannot serve a call logs a warning and
// answers the degraded result — AddMemories (0, nil), QueryMemories (empty,
// nil) — never an error and never a panic. Errors are returned only for
// caller mistakes (an empty session id) and cancelled contexts. The Chroma
// backend connects eagerly at startup and lazily on the next call after a
// failure (D39, EC-46..EC-53).
package memory

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/embedding"
)

// Collection is the single memory collection (D34, D41).
const Collection = "paige_memories"

// DefaultNResults is QueryMemories' result count when Query.NResults is 0 (D40).
const DefaultNResults = 10

// MaxNResults caps Query.NResults.
const MaxNResults = 1000

// Memory is one memory to store.
type Memory struct {
	Content    string   `json:"content"`
	Tags       []string `json:"tags"`
	Importance string   `json:"importance"` // high, medium or low; empty means medium
}

// Metadata is what is stored beside a memory's content.
type Metadata struct {
	SessionID  string `json:"session_id"`
	Project    string `json:"project"`
	CreatedAt  string `json:"created_at"` // ISO 8601 UTC
	Importance string `json:"importance"`
	Tags       string `json:"tags"` // comma-separated
}

// Result is one recalled memory.
type Result struct {
	ID       string   `json:"id"`
	Content  string   `json:"content"`
	Metadata Metadata `json:"metadata"`
	Distance float64  `json:"distance"` // cosine distance; lower is more similar
}

// Query is a semantic search.
type Query struct {
	Text     string // passed as is, even when empty (EC-49)
	NResults int    // 0 means DefaultNResults; capped at MaxNResults
	Project  string // empty: every project (cross-project recall)
}

// Store is a memory backend. Implementations are safe for concurrent use.
type Store interface {
	// AddMemories stores memories for a session and project and returns how
	// many were added. An empty slice adds nothing and touches no backend
	// (EC-48). It degrades to (0, nil) when the backend cannot serve.
	AddMemories(ctx context.Context, sessionID, project string, memories []Memory) (int, error)
	// QueryMemories returns up to NResults memories nearest to q.Text, nearest
	// first, only from q.Project when set. It degrades to (nil, nil).
	QueryMemories(ctx context.Context, q Query) ([]Result, error)
	// IsMemoryAvailable reports whether the last contact with the backend
	// succeeded. It makes no network call.
	IsMemoryAvailable() bool
	// Close releases the backend.
	Close() error
}

// FromConfig opens the Store cfg selects: PAIGE_MEMORY=embedded (default;
// DATA_DIR/memory.db) or chroma (CHROMADB_URL, default
// http://localhost:8000; chosen automatically when CHROMADB_URL is set), with
// the embedder of PAIGE_EMBEDDER. A Chroma server that is down is not an
// error: the store starts degraded and recovers lazily. Errors mean bad
// configuration or an embedded database that cannot be opened; callers that
// want to run without memory then can use [Nop].
func FromConfig(ctx context.Context, cfg config.Config, logger *slog.Logger) (Store, error) {
	emb, err := embedding.FromConfig(cfg)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(strings.TrimSpace(cfg.Memory)) {
	case "", "embedded":
		return OpenEmbedded(ctx, filepath.Join(cfg.DataDir, "memory.db"), emb, &Options{Logger: logger})
	case "chroma", "chromadb":
		return OpenChroma(ctx, cfg.ChromaURL(), emb, &Options{Logger: logger}), nil
	default:
		return nil, fmt.Errorf("PAIGE_MEMORY must be embedded or chroma, got %q", cfg.Memory)
	}
}
