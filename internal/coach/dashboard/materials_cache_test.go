package dashboard

import (
	"context"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
)

// Learning materials are cached per research input: a second
// dashboard:request with the same gaps makes no materials call; a new gap
// researches again.
func TestMaterialsCachedPerGaps(t *testing.T) {
	t.Parallel()
	gh, _ := fakeGH(t, ghPrints(`[]`))
	s := newServer(t, serverOpts{gh: gh, memory: memory.Nop{}})
	sess := seedLearning(t, s)
	s.llm.Handle(routed(llmtest.JSON(map[string]any{"issues": []any{}}), llmtest.JSON(materialsReply())))
	materialCalls := func() int {
		n := 0
		for _, r := range s.llm.Requests() {
			if r.System != issueassessment.SystemPrompt {
				n++
			}
		}
		return n
	}
	c := s.dial(t)
	load := func() DashboardMaterials {
		t.Helper()
		c.send(typeDashboardRequest, map[string]any{"statsPeriod": "all"})
		c.expect(typeDashboardState, nil)
		return decode[DashboardMaterials](t, c.collect(2)[typeDashboardMaterials])
	}
	first := load()
	second := load()
	if n := materialCalls(); n != 1 {
		t.Errorf("materials model calls after two loads = %d, want 1", n)
	}
	if len(first.Recommendations) != 1 || len(second.Recommendations) != 1 || second.Recommendations[0].KnowledgeGap != first.Recommendations[0].KnowledgeGap {
		t.Errorf("cached materials = %+v, first %+v", second, first)
	}
	if _, err := s.st.CreateKnowledgeGap(context.Background(), coach.KnowledgeGap{SessionID: sess.ID, Topic: "Query plans",
		Severity: coach.SeverityHigh}); err != nil {
		t.Fatal(err)
	}
	load()
	if n := materialCalls(); n != 2 {
		t.Errorf("materials model calls after a new gap = %d, want 2", n)
	}
	load()
	if n := materialCalls(); n != 2 {
		t.Errorf("materials model calls after loading again = %d, want 2 (cached)", n)
	}

	// dashboard:refresh_materials researches again with unchanged gaps,
	// answers only dashboard:materials, and its answer is the new cache.
	refreshed := materialsReply()
	refreshed["recommendations"].([]any)[0].(map[string]any)["knowledge_gap"] = "Query plans"
	s.llm.Handle(routed(llmtest.JSON(map[string]any{"issues": []any{}}), llmtest.JSON(refreshed)))
	c.send(typeDashboardRefreshMats, map[string]any{})
	got := c.collect(1)
	fresh := decode[DashboardMaterials](t, got[typeDashboardMaterials])
	if n := materialCalls(); n != 3 {
		t.Errorf("materials model calls after a refresh = %d, want 3", n)
	}
	if len(fresh.Recommendations) != 1 || fresh.Recommendations[0].KnowledgeGap != "Query plans" {
		t.Errorf("refreshed materials = %+v", fresh)
	}
	if after := load(); len(after.Recommendations) != 1 || after.Recommendations[0].KnowledgeGap != "Query plans" {
		t.Errorf("materials after the refresh = %+v, want the refreshed ones from the cache", after)
	}
	if n := materialCalls(); n != 3 {
		t.Errorf("materials model calls after loading once more = %d, want 3", n)
	}
}
