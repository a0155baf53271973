package learnseed

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/seed"
)

// SourceSeed marks a hit that is a confirmed learning of the personal seed.
const SourceSeed = "seed"

// DefaultMaxDistance is the relevance cut-off of [Recall.Search]: a hit
// farther from the query (cosine distance) is left out. With the lexical
// embedder, related texts are at 0.3–0.6 and unrelated ones at 0.85 or more.
const DefaultMaxDistance = 0.7

// ErrNotFound is returned by [Recall.Get] for an id no source holds.
var ErrNotFound = errors.New("no memory, knowledge entry or seed learning has this id")

// Recall is the one search over what Paige knows about the developer: the
// coach's session memories, the learn knowledge store's active entries and
// the seed's confirmed learnings, ranked together by the memory store's
// embedder (the MCP tools paige_search_knowledge and paige_get_knowledge).
type Recall struct {
	Memory    memory.Store                  // nil: no coach memories
	Knowledge func() ([]learn.Entry, error) // nil: no knowledge store
	SeedPath  string                        // "": no seed
	Embedder  embedding.Embedder
	// MaxDistance is the relevance cut-off; 0 means DefaultMaxDistance.
	MaxDistance float64
}

// Item is one thing Paige knows, whole.
type Item struct {
	Source  string   `json:"source"`
	ID      string   `json:"id"`
	Content string   `json:"content"`
	Kind    string   `json:"kind"`
	Origin  string   `json:"origin"`
	Date    string   `json:"date"`
	Tags    []string `json:"tags,omitempty"`
}

// Search returns up to n hits nearest to query from the three sources,
// nearest first, each within the cut-off. A source that cannot be read
// is an error: a partial answer would look like a complete one.
func (r Recall) Search(ctx context.Context, query string, n int) ([]Hit, error) {
	var cands []Hit
	if r.Knowledge != nil {
		entries, err := r.Knowledge()
		if err != nil {
			return nil, fmt.Errorf("read knowledge: %w", err)
		}
		for _, e := range entries {
			if e.Active() && strings.TrimSpace(e.Content) != "" {
				cands = append(cands, Hit{Source: SourceKnowledge, ID: e.ID, Content: e.Content, Kind: string(e.Type),
					Origin: e.Source, Date: e.ExtractedAt})
			}
		}
	}
	items, err := r.seedItems()
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		cands = append(cands, Hit{Source: SourceSeed, ID: it.ID, Content: it.Content, Kind: it.Kind, Origin: it.Origin, Date: it.Date})
	}
	hits, err := rank(ctx, query, n, r.Memory, cands, r.Embedder)
	if err != nil {
		return nil, err
	}
	limit := r.MaxDistance
	if limit == 0 {
		limit = DefaultMaxDistance
	}
	out := hits[:0]
	for _, h := range hits {
		if h.Distance <= limit {
			out = append(out, h)
		}
	}
	return out, nil
}

// seedItems reads the seed's confirmed learnings, read-only.
func (r Recall) seedItems() ([]Item, error) {
	if r.SeedPath == "" {
		return nil, nil
	}
	l, err := seed.Peek(r.SeedPath)
	if err != nil {
		return nil, fmt.Errorf("read the seed: %w", err)
	}
	if l.Created {
		return nil, nil
	}
	var out []Item
	for kind, list := range map[string][]seed.Learning{"pattern": l.Seed.Learned.Patterns,
		"insight": l.Seed.Learned.Insights, "self_knowledge": l.Seed.Learned.SelfKnowledge} {
		for _, x := range list {
			if !x.Confirmed || strings.TrimSpace(x.Content) == "" {
				continue
			}
			date := x.ConfirmedAt
			if date == "" {
				date = x.ExtractedAt
			}
			out = append(out, Item{Source: SourceSeed, ID: x.ID, Content: x.Content, Kind: kind, Origin: x.Source, Date: date, Tags: x.Tags})
		}
	}
	return out, nil
}

// Get returns the item with id from whichever source holds it.
func (r Recall) Get(ctx context.Context, id string) (Item, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return Item{}, ErrNotFound
	}
	if ed, ok := r.Memory.(memory.Editor); ok {
		list, err := ed.ListMemories(ctx, "")
		if err != nil {
			return Item{}, fmt.Errorf("read memories: %w", err)
		}
		for _, m := range list {
			if m.ID == id {
				return memoryItem(m), nil
			}
		}
	}
	if r.Knowledge != nil {
		entries, err := r.Knowledge()
		if err != nil {
			return Item{}, fmt.Errorf("read knowledge: %w", err)
		}
		for _, e := range entries {
			if e.ID == id && e.Active() {
				return Item{Source: SourceKnowledge, ID: e.ID, Content: e.Content, Kind: string(e.Type), Origin: e.Source,
					Date: e.ExtractedAt, Tags: e.Entities}, nil
			}
		}
	}
	items, err := r.seedItems()
	if err != nil {
		return Item{}, err
	}
	for _, it := range items {
		if it.ID == id {
			return it, nil
		}
	}
	return Item{}, ErrNotFound
}

func memoryItem(m memory.Result) Item {
	var tags []string
	for _, t := range strings.Split(m.Metadata.Tags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	return Item{Source: SourceMemory, ID: m.ID, Content: m.Content, Kind: m.Metadata.Importance,
		Origin: "coaching session " + m.Metadata.SessionID, Date: m.Metadata.CreatedAt, Tags: tags}
}
