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
	Distance float64 `json:"distance"`
}

// Search returns the n hits nearest to query over the coach memories in
// mem (nil: none) and the active knowledge entries, nearest first. The
// entries are embedded with emb, the embedder the memory store uses, so the
// distances of both sources compare.
func Search(ctx context.Context, query string, n int, mem memory.Store, entries []learn.Entry, emb embedding.Embedder) ([]Hit, error) {
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
				Kind: r.Metadata.Importance, Origin: r.Metadata.SessionID, Distance: r.Distance})
		}
	}
	kh, err := searchEntries(ctx, query, entries, emb)
	if err != nil {
		return nil, err
	}
	hits = append(hits, kh...)
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Distance < hits[j].Distance })
	if len(hits) > n {
		hits = hits[:n]
	}
	return hits, nil
}

// searchEntries scores the active entries against query.
func searchEntries(ctx context.Context, query string, entries []learn.Entry, emb embedding.Embedder) ([]Hit, error) {
	var active []learn.Entry
	for _, e := range entries {
		if e.Active() && strings.TrimSpace(e.Content) != "" {
			active = append(active, e)
		}
	}
	if len(active) == 0 {
		return nil, nil
	}
	texts := make([]string, 0, len(active)+1)
	texts = append(texts, query)
	for _, e := range active {
		texts = append(texts, e.Content)
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed knowledge: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embed knowledge: got %d vectors for %d texts", len(vecs), len(texts))
	}
	hits := make([]Hit, len(active))
	for i, e := range active {
		hits[i] = Hit{Source: SourceKnowledge, ID: e.ID, Content: e.Content, Kind: string(e.Type),
			Origin: e.Source, Distance: 1 - cosine(vecs[0], vecs[i+1])}
	}
	return hits, nil
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
