package mcpapi

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Knowledge answers paige_search_knowledge and paige_get_knowledge: one
// search over what Paige knows about the developer — coach memories,
// learned knowledge and the seed's confirmed learnings. Those live in other
// capabilities, so the CLI wiring supplies it (learnseed.Recall).
type Knowledge interface {
	SearchKnowledge(ctx context.Context, query string, limit int) ([]KnowledgeHit, error)
	// GetKnowledge returns the item with id, or an error wrapping
	// ErrKnowledgeNotFound.
	GetKnowledge(ctx context.Context, id string) (KnowledgeItem, error)
}

// ErrKnowledgeNotFound is the error of a GetKnowledge for an unknown id.
var ErrKnowledgeNotFound = errors.New("no memory, knowledge entry or seed learning has this id")

// KnowledgeHit is one search result.
type KnowledgeHit struct {
	Source   string  `json:"source" jsonschema:"memory (a coaching session's memory), knowledge (learned from transcripts) or seed (a confirmed learning)"`
	ID       string  `json:"id" jsonschema:"pass it to paige_get_knowledge for the whole item"`
	Content  string  `json:"content"`
	Kind     string  `json:"kind" jsonschema:"memory importance, knowledge type or seed category"`
	Origin   string  `json:"origin" jsonschema:"the session it came from"`
	Date     string  `json:"date" jsonschema:"when it was stored, learned or confirmed (ISO 8601 UTC)"`
	Distance float64 `json:"distance" jsonschema:"cosine distance to the query: lower is closer"`
}

// KnowledgeItem is one item, whole.
type KnowledgeItem struct {
	Source  string   `json:"source"`
	ID      string   `json:"id"`
	Content string   `json:"content"`
	Kind    string   `json:"kind"`
	Origin  string   `json:"origin"`
	Date    string   `json:"date"`
	Tags    []string `json:"tags,omitempty"`
}

// SearchKnowledgeIn is paige_search_knowledge's input.
type SearchKnowledgeIn struct {
	Query string `json:"query" jsonschema:"what to look for, in words"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many hits at most (default 5, at most 20)"`
}

// SearchKnowledgeOut is paige_search_knowledge's result.
type SearchKnowledgeOut struct {
	Hits []KnowledgeHit `json:"hits" jsonschema:"nearest first; only hits close enough to the query"`
}

// GetKnowledgeIn is paige_get_knowledge's input.
type GetKnowledgeIn struct {
	ID string `json:"id" jsonschema:"an id from paige_search_knowledge"`
}

// maxKnowledgeHits bounds a search's answer.
const maxKnowledgeHits = 20

// KnowledgeTools returns the [Options.Extra] that registers
// paige_search_knowledge and paige_get_knowledge. Both only read and need
// no coaching session.
func KnowledgeTools(k Knowledge) func(*Server, *Deps) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	return func(s *Server, _ *Deps) {
		AddTool(s, &mcp.Tool{Name: "paige_search_knowledge", Annotations: readOnly,
			Description: "Search what Paige knows about the developer: memories of earlier coaching sessions, knowledge " +
				"learned from their Claude Code sessions, and the confirmed learnings of their personal seed. Ranked " +
				"together, nearest first, only hits close enough to the query; each names its source, date and id."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in SearchKnowledgeIn) (*mcp.CallToolResult, SearchKnowledgeOut, error) {
				if strings.TrimSpace(in.Query) == "" {
					return nil, SearchKnowledgeOut{}, errors.New("query is empty: say what to look for")
				}
				if len(in.Query) > 4096 {
					return nil, SearchKnowledgeOut{}, errors.New("query is longer than 4096 bytes")
				}
				n := in.Limit
				if n <= 0 {
					n = 5
				}
				hits, err := k.SearchKnowledge(ctx, in.Query, min(n, maxKnowledgeHits))
				if hits == nil {
					hits = []KnowledgeHit{}
				}
				return nil, SearchKnowledgeOut{Hits: hits}, err
			})
		AddTool(s, &mcp.Tool{Name: "paige_get_knowledge", Annotations: readOnly,
			Description: "Fetch one item Paige knows, whole, by the id paige_search_knowledge gave: its source, content, kind, origin, date and tags."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in GetKnowledgeIn) (*mcp.CallToolResult, KnowledgeItem, error) {
				it, err := k.GetKnowledge(ctx, in.ID)
				return nil, it, err
			})
	}
}
