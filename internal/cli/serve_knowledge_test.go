package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/memoryview/memoryviewtest"
	"github.com/paige-dev/paige/internal/seed"
)

// TestServeSearchKnowledgeAllSources: through the official MCP client,
// paige_search_knowledge answers from the coach memories, the learn
// knowledge store and the seed's confirmed learnings together, nearest
// first, each hit with its source, date and id, and nothing unrelated;
// paige_get_knowledge returns each hit whole; an unknown id is a tool
// error. No coaching session is needed.
func TestServeSearchKnowledgeAllSources(t *testing.T) {
	env := serveEnv(t)
	data := env["DATA_DIR"]
	memoryviewtest.Memories(t, data, "coach-7", env["PROJECT_DIR"],
		memory.Memory{Content: "Learner confused goroutine leaks with deadlocks", Importance: "high", Tags: []string{"concurrency"}},
	).Close()
	memoryviewtest.Knowledge(t, data,
		learn.Entry{Type: learn.Rule, Content: "Always cancel contexts to avoid goroutine leaks", Entities: []string{"goroutine"}, Source: "session:abc", Confidence: 0.9},
		learn.Entry{Type: learn.Preference, Content: "User prefers pnpm over npm", Entities: []string{"pnpm"}, Source: "session:abc", Confidence: 0.9},
	)
	sd := seed.Defaults()
	sd.Learned.Patterns = append(sd.Learned.Patterns,
		seed.Learning{ID: "p-goroutine", Content: "Check goroutine leaks with goleak in tests", Source: "session:def",
			ExtractedAt: "2026-11-30T10:00:00Z", ConfirmedAt: "2026-12-01T09:00:00Z", Confirmed: true, Tags: []string{}},
		seed.Learning{ID: "p-unconfirmed", Content: "goroutine leaks are rare", Source: "session:def",
			ExtractedAt: "2026-11-30T10:00:00Z", Tags: []string{}})
	env["PAI_SEED_PATH"] = filepath.Join(env["HOME"], ".pai", "seed.json")
	if err := seed.Write(env["PAI_SEED_PATH"], sd); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, env)
	cs := s.mcpClient(t)

	var out mcpapi.SearchKnowledgeOut
	if msg := callTool(t, cs, "paige_search_knowledge", map[string]any{"query": "goroutine leaks", "limit": 10}, &out); msg != "" {
		t.Fatal(msg)
	}
	sources := map[string]mcpapi.KnowledgeHit{}
	for i, h := range out.Hits {
		sources[h.Source] = h
		if !strings.Contains(h.Content, "goroutine") || h.ID == "" || h.Date == "" {
			t.Errorf("hit %+v: off-topic, or without id or date", h)
		}
		if i > 0 && h.Distance < out.Hits[i-1].Distance {
			t.Errorf("hits not nearest first: %+v", out.Hits)
		}
		if h.ID == "p-unconfirmed" {
			t.Errorf("an unconfirmed seed proposal was returned: %+v", h)
		}
	}
	if len(sources) != 3 || sources["seed"].ID != "p-goroutine" || sources["seed"].Date != "2026-12-01T09:00:00Z" {
		t.Fatalf("hits %+v, want one from each of memory, knowledge and seed", out.Hits)
	}
	for _, h := range out.Hits {
		var it mcpapi.KnowledgeItem
		if msg := callTool(t, cs, "paige_get_knowledge", map[string]any{"id": h.ID}, &it); msg != "" || it.Content != h.Content || it.Source != h.Source {
			t.Errorf("get %s: %q %+v", h.ID, msg, it)
		}
	}
	var mem mcpapi.KnowledgeItem
	callTool(t, cs, "paige_get_knowledge", map[string]any{"id": sources["memory"].ID}, &mem)
	if len(mem.Tags) != 1 || mem.Tags[0] != "concurrency" || mem.Origin != "coaching session coach-7" {
		t.Errorf("memory item %+v", mem)
	}
	if msg := callTool(t, cs, "paige_get_knowledge", map[string]any{"id": "nope"}, nil); !strings.Contains(msg, "no memory, knowledge entry or seed learning") {
		t.Errorf("unknown id: %q", msg)
	}
	out = mcpapi.SearchKnowledgeOut{}
	if msg := callTool(t, cs, "paige_search_knowledge", map[string]any{"query": "kubernetes helm charts"}, &out); msg != "" || len(out.Hits) != 0 {
		t.Errorf("an unrelated query: %q %+v, want no hits (the relevance cut-off)", msg, out.Hits)
	}
	if msg := callTool(t, cs, "paige_search_knowledge", map[string]any{"query": " "}, nil); !strings.Contains(msg, "query is empty") {
		t.Errorf("empty query: %q", msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	tools, err := cs.ListTools(ctx, &mcp.ListToolsParams{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tool := range tools.Tools {
		if strings.HasSuffix(tool.Name, "_knowledge") && tool.Annotations != nil && tool.Annotations.ReadOnlyHint {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d read-only knowledge tools listed, want 2", n)
	}
}
