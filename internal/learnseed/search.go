package learnseed

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/memory"
)

// Hit sources.
const (
	SourceMemory    = "memory"    // a coach session wrap-up memory
	SourceKnowledge = "knowledge" // a learn knowledge entry
)

// Hit is one search result from either store. Distance is the cosine
// distance to the query (lower is closer), comparable across sources when
// both use the same embedder.
type Hit struct {
	Source   string  `json:"source"`
	ID       string  `json:"id"`
	Content  string  `json:"content"`
	Kind     string  `json:"kind"`   // memory importance or knowledge type
	Origin   string  `json:"origin"` // memory session id, or entry source
	Date     string  `json:"date"`   // when it was stored, learned or confirmed (ISO 8601 UTC)
	Distance float64 `json:"distance"`
}

// Search returns the n hits nearest to query over the coach memories in
// mem (nil: none) and the active knowledge entries, nearest first. The
// entries are embedded with emb, the embedder the memory store uses, so the
// distances of both sources compare.
func Search(ctx context.Context, query string, n int, mem memory.Store, entries []learn.Entry, emb embedding.Embedder) ([]Hit, error) {
	var texts []Hit
	for _, e := range entries {
		if e.Active() && strings.TrimSpace(e.Content) != "" {
			texts = append(texts, Hit{Source: SourceKnowledge, ID: e.ID, Content: e.Content, Kind: string(e.Type),
				Origin: e.Source, Date: e.ExtractedAt})
		}
	}
	return rank(ctx, query, n, mem, texts, emb)
}

// rank returns the n hits nearest to query over the memories in mem (nil:
// none) and the candidates (scored with emb), nearest first.
func rank(ctx context.Context, query string, n int, mem memory.Store, cands []Hit, emb embedding.Embedder) ([]Hit, error) {
	if n <= 0 {
		n = memory.DefaultNResults
	}
	var hits []Hit
	if mem != nil {
		rs, err := mem.QueryMemories(ctx, memory.Query{Text: query, NResults: n})
		if err != nil {
			return nil, fmt.Errorf("search memories: %w", err)
		}
		for _, r := range rs {
			hits = append(hits, Hit{Source: SourceMemory, ID: r.ID, Content: r.Content,
				Kind: r.Metadata.Importance, Origin: r.Metadata.SessionID, Date: r.Metadata.CreatedAt, Distance: r.Distance})
		}
	}
	scored, err := score(ctx, query, cands, emb)
	if err != nil {
		return nil, err
	}
	hits = append(hits, scored...)
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Distance < hits[j].Distance })
	if len(hits) > n {
		hits = hits[:n]
	}
	return hits, nil
}

// score sets each candidate's distance to query.
func score(ctx context.Context, query string, cands []Hit, emb embedding.Embedder) ([]Hit, error) {
	if len(cands) == 0 {
		return nil, nil
	}
	texts := make([]string, 0, len(cands)+1)
	texts = append(texts, query)
	for _, c := range cands {
		texts = append(texts, c.Content)
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed knowledge: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embed knowledge: got %d vectors for %d texts", len(vecs), len(texts))
	}
	for i := range cands {
		cands[i].Distance = 1 - cosine(vecs[0], vecs[i+1])
	}
	return cands, nil
}

// cosine is the dot product of two L2-normalised vectors (0 when their
// lengths differ).
func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
