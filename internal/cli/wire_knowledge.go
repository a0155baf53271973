package cli

import (
	"context"
	"errors"

	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learnseed"
)

// knowledgeTools registers paige_search_knowledge and paige_get_knowledge
// over learnseed.Recall: the coach's memory store (a.mem, opened by
// wireCoach's models), learn's knowledge store and the seed, read afresh at
// each call (the SessionEnd worker and `paige seed` change them behind the
// server's back). Without an embedder the tools answer its error.
func knowledgeTools(a *app) func(*mcpapi.Server, *mcpapi.Deps) {
	emb, err := embedding.FromConfig(a.cfg)
	r := &recallTools{err: err, r: learnseed.Recall{
		Memory:   a.mem,
		SeedPath: serveSeedPath(a),
		Embedder: emb,
		Knowledge: func() ([]learn.Entry, error) {
			st, err := knowledge.Open(knowledgeStoreDir(a.cfg))
			if err != nil {
				return nil, err
			}
			return st.Active()
		},
	}}
	return mcpapi.KnowledgeTools(r)
}

// recallTools adapts learnseed.Recall to mcpapi.Knowledge.
type recallTools struct {
	r   learnseed.Recall
	err error // the embedder's configuration error
}

func (t *recallTools) SearchKnowledge(ctx context.Context, query string, limit int) ([]mcpapi.KnowledgeHit, error) {
	if t.err != nil {
		return nil, t.err
	}
	hits, err := t.r.Search(ctx, query, limit)
	out := make([]mcpapi.KnowledgeHit, 0, len(hits))
	for _, h := range hits {
		out = append(out, mcpapi.KnowledgeHit{Source: h.Source, ID: h.ID, Content: h.Content, Kind: h.Kind,
			Origin: h.Origin, Date: h.Date, Distance: h.Distance})
	}
	return out, err
}

func (t *recallTools) GetKnowledge(ctx context.Context, id string) (mcpapi.KnowledgeItem, error) {
	it, err := t.r.Get(ctx, id)
	if errors.Is(err, learnseed.ErrNotFound) {
		return mcpapi.KnowledgeItem{}, mcpapi.ErrKnowledgeNotFound
	}
	return mcpapi.KnowledgeItem{Source: it.Source, ID: it.ID, Content: it.Content, Kind: it.Kind, Origin: it.Origin,
		Date: it.Date, Tags: it.Tags}, err
}

// withTools runs each registration in turn (the coaching tools, then the
// knowledge tools).
func withTools(regs ...func(*mcpapi.Server, *mcpapi.Deps)) func(*mcpapi.Server, *mcpapi.Deps) {
	return func(s *mcpapi.Server, d *mcpapi.Deps) {
		for _, r := range regs {
			r(s, d)
		}
	}
}
