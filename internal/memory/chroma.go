package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	pembed "github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/sqlite"
)

// ChromaTimeout bounds each HTTP request to ChromaDB.
const ChromaTimeout = 10 * time.Second

// Chroma is the ChromaDB backend (HTTP API v2, tenant default_tenant,
// database default_database, collection paige_memories with cosine
// distance). Paige supplies the embeddings.
//
// # Connection lifecycle (D39)
//
// OpenChroma gets or creates the collection at once and logs "ChromaDB
// connected — collection paige_memories ready" or "ChromaDB unavailable at
// {url} — memory features disabled". While unavailable, each operation first
// tries to reconnect; on success it logs the recovery and proceeds. Any
// failed request (server gone, collection deleted externally, EC-47, EC-53)
// logs a warning, answers the degraded result and marks the store
// unavailable, so the next call reconnects (and re-creates a deleted
// collection). No retry queues, no timers.
type Chroma struct {
	url    string
	base   string // url + /api/v2/tenants/…/databases/…
	emb    pembed.Embedder
	client *http.Client
	log    *slog.Logger
	now    func() time.Time
	addM   sync.Mutex // serialises AddMemories so numbering cannot race

	mu     sync.Mutex
	collID string // "" while disconnected; guarded by mu

	available atomic.Bool
}

var _ Store = (*Chroma)(nil)

// OpenChroma connects to the ChromaDB server at url. It never fails: a server
// that is down leaves the store degraded until a later call reconnects.
func OpenChroma(ctx context.Context, url string, emb pembed.Embedder, opts *Options) *Chroma {
	url = strings.TrimRight(url, "/")
	database := "default_database"
	if opts != nil && opts.ChromaDatabase != "" {
		database = opts.ChromaDatabase
	}
	c := &Chroma{
		url:    url,
		base:   url + "/api/v2/tenants/default_tenant/databases/" + database,
		emb:    emb,
		client: &http.Client{Timeout: ChromaTimeout},
		log:    opts.logger(),
		now:    opts.now(),
	}
	if _, err := c.collection(ctx, false); err != nil {
		c.log.Warn(fmt.Sprintf("ChromaDB unavailable at %s — memory features disabled", url), "err", err)
	} else {
		c.log.Info("ChromaDB connected — collection " + Collection + " ready")
	}
	return c
}

// Close releases idle connections.
func (c *Chroma) Close() error {
	c.client.CloseIdleConnections()
	return nil
}

// IsMemoryAvailable reports the current connectivity flag (FR-105).
func (c *Chroma) IsMemoryAvailable() bool { return c.available.Load() }

// collection returns the collection id, getting or creating the collection
// when disconnected. recovering logs a recovery on success.
func (c *Chroma) collection(ctx context.Context, recovering bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.collID != "" {
		return c.collID, nil
	}
	var coll struct {
		ID       string         `json:"id"`
		Metadata map[string]any `json:"metadata"`
	}
	err := c.do(ctx, "/collections", map[string]any{
		"name":          Collection,
		"get_or_create": true,
		"configuration": map[string]any{"hnsw": map[string]any{"space": "cosine"}},
		"metadata":      map[string]any{"paige_embedder": c.emb.ID()},
	}, &coll)
	if err == nil && coll.ID == "" {
		err = errors.New("ChromaDB answered no collection id")
	}
	if err != nil {
		c.available.Store(false)
		return "", err
	}
	if was, _ := coll.Metadata["paige_embedder"].(string); was != "" && was != c.emb.ID() {
		c.log.Warn("ChromaDB collection "+Collection+" holds vectors of another embedder; results will be poor until it is re-created",
			"collection_embedder", was, "embedder", c.emb.ID())
	}
	c.collID = coll.ID
	c.available.Store(true)
	if recovering {
		c.log.Info("ChromaDB reconnected — collection " + Collection + " ready")
	}
	return c.collID, nil
}

// connected returns the collection id, reconnecting when needed; on failure
// it logs the degraded operation.
func (c *Chroma) connected(ctx context.Context, op string) (string, bool) {
	id, err := c.collection(ctx, true)
	if err != nil {
		c.log.Warn("ChromaDB unavailable — "+op+" degraded", "url", c.url, "err", err)
		return "", false
	}
	return id, true
}

// fail marks the store disconnected after a failed operation (FR-106).
func (c *Chroma) fail(op string, err error) {
	c.mu.Lock()
	c.collID = ""
	c.mu.Unlock()
	c.available.Store(false)
	c.log.Warn("ChromaDB "+op+" failed — memory degraded until it reconnects", "url", c.url, "err", err)
}

// AddMemories embeds and adds memories in one add call (EC-51); see [Store].
func (c *Chroma) AddMemories(ctx context.Context, sessionID, project string, memories []Memory) (int, error) {
	if sessionID == "" {
		return 0, ErrNoSession
	}
	if len(memories) == 0 {
		return 0, nil
	}
	c.addM.Lock()
	defer c.addM.Unlock()
	coll, ok := c.connected(ctx, "addMemories")
	if !ok {
		return 0, ctx.Err()
	}
	var existing struct {
		IDs []string `json:"ids"`
	}
	if err := c.do(ctx, "/collections/"+coll+"/get", map[string]any{
		"where": map[string]any{"session_id": sessionID}, "include": []string{},
	}, &existing); err != nil {
		c.fail("addMemories", err)
		return 0, ctx.Err()
	}
	recs := buildRecords(sessionID, project, sqlite.FormatTime(c.now()), NextIndex(sessionID, existing.IDs), memories)
	vecs, err := c.emb.Embed(ctx, contents(recs))
	if err != nil {
		c.log.Warn("memory: embedding failed — addMemories degraded", "embedder", c.emb.ID(), "err", err)
		return 0, ctx.Err()
	}
	body := map[string]any{"ids": []string{}, "embeddings": [][]float32{}, "documents": []string{}, "metadatas": []Metadata{}}
	for i, r := range recs {
		body["ids"] = append(body["ids"].([]string), r.ID)
		body["embeddings"] = append(body["embeddings"].([][]float32), nonZero(vecs[i]))
		body["documents"] = append(body["documents"].([]string), r.Content)
		body["metadatas"] = append(body["metadatas"].([]Metadata), r.Metadata)
	}
	if err := c.do(ctx, "/collections/"+coll+"/add", body, nil); err != nil {
		c.fail("addMemories", err)
		return 0, ctx.Err()
	}
	return len(recs), nil
}

// QueryMemories runs a nearest-neighbour query; see [Store].
func (c *Chroma) QueryMemories(ctx context.Context, q Query) ([]Result, error) {
	coll, ok := c.connected(ctx, "queryMemories")
	if !ok {
		return nil, ctx.Err()
	}
	vecs, err := c.emb.Embed(ctx, []string{q.Text})
	if err != nil {
		c.log.Warn("memory: embedding failed — queryMemories degraded", "embedder", c.emb.ID(), "err", err)
		return nil, ctx.Err()
	}
	body := map[string]any{
		"query_embeddings": [][]float32{nonZero(vecs[0])},
		"n_results":        nResults(q.NResults),
		"include":          []string{"documents", "metadatas", "distances"},
	}
	if q.Project != "" {
		body["where"] = map[string]any{"project": q.Project}
	}
	var res struct {
		IDs       [][]string         `json:"ids"`
		Documents [][]*string        `json:"documents"`
		Metadatas [][]map[string]any `json:"metadatas"`
		Distances [][]float64        `json:"distances"`
	}
	if err := c.do(ctx, "/collections/"+coll+"/query", body, &res); err != nil {
		c.fail("queryMemories", err)
		return nil, ctx.Err()
	}
	return queryResults(res.IDs, res.Documents, res.Metadatas, res.Distances), nil
}

// queryResults zips Chroma's column-wise answer for the first query.
func queryResults(ids [][]string, docs [][]*string, metas [][]map[string]any, dists [][]float64) []Result {
	if len(ids) == 0 {
		return []Result{}
	}
	out := make([]Result, 0, len(ids[0]))
	for i, id := range ids[0] {
		r := Result{ID: id}
		if len(docs) > 0 && i < len(docs[0]) && docs[0][i] != nil {
			r.Content = *docs[0][i]
		}
		if len(metas) > 0 && i < len(metas[0]) {
			r.Metadata = metadataFrom(metas[0][i])
		}
		if len(dists) > 0 && i < len(dists[0]) {
			r.Distance = dists[0][i]
		}
		out = append(out, r)
	}
	return out
}

func metadataFrom(m map[string]any) Metadata {
	s := func(k string) string {
		switch v := m[k].(type) {
		case string:
			return v
		case nil:
			return ""
		default:
			return fmt.Sprint(v)
		}
	}
	return Metadata{SessionID: s("session_id"), Project: s("project"), CreatedAt: s("created_at"),
		Importance: s("importance"), Tags: s("tags")}
}

// nonZero returns v, or a unit vector when v is all zeros: cosine distance
// to a zero vector is undefined, and ChromaDB would answer NaN.
func nonZero(v []float32) []float32 {
	for _, x := range v {
		if x != 0 {
			return v
		}
	}
	u := make([]float32, len(v))
	if len(u) > 0 {
		u[0] = 1
	}
	return u
}

// do POSTs body as JSON to base+path and decodes a 2xx answer into out (when
// non-nil). Other statuses are errors carrying Chroma's message.
func (c *Chroma) do(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("ChromaDB %s: %d %s", path, res.StatusCode, strings.TrimSpace(string(raw)))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("ChromaDB %s: decode answer: %w", path, err)
	}
	return nil
}
