package learnseed

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/memory"
)

func TestSearchMemoriesAndKnowledge(t *testing.T) {
	ctx := context.Background()
	emb := embedding.NewLexical(0)
	mem, err := memory.OpenEmbedded(ctx, filepath.Join(t.TempDir(), "memory.db"), emb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if _, err := mem.AddMemories(ctx, "coach-1", "/p", []memory.Memory{
		{Content: "Struggled with React useEffect cleanup functions", Importance: "high"},
		{Content: "Prefers small commits with clear messages"},
	}); err != nil {
		t.Fatal(err)
	}
	forgotten := entry("k3", learn.Fact, "useEffect cleanup runs before the next effect", "useEffect")
	forgotten.Forgotten = true
	entries := []learn.Entry{
		entry("k1", learn.Fact, "The useEffect cleanup function runs on unmount", "useEffect"),
		entry("k2", learn.Preference, "User prefers pnpm over npm", "pnpm"),
		forgotten,
	}
	hits, err := Search(ctx, "useEffect cleanup", 3, mem, entries, emb)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.Source+":"+h.ID)
	}
	if len(hits) != 3 {
		t.Fatalf("got %v, want 3 hits", got)
	}
	top := map[string]bool{got[0]: true, got[1]: true}
	if !top["knowledge:k1"] || !top["memory:mem_coach-1_0"] {
		t.Errorf("the two useEffect items are not the two nearest: %v", got)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Distance < hits[i-1].Distance {
			t.Errorf("hits not ordered by distance: %+v", hits)
		}
	}
	for _, h := range hits {
		if h.ID == "k3" {
			t.Error("a forgotten entry was returned")
		}
		if h.ID == "mem_coach-1_0" && (h.Kind != "high" || h.Origin != "coach-1") {
			t.Errorf("memory hit %+v lacks its metadata", h)
		}
	}

	only, err := Search(ctx, "pnpm", 1, nil, entries, emb)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"k2"}, []string{only[0].ID}); diff != "" || len(only) != 1 {
		t.Errorf("knowledge only (-want +got):\n%s", diff)
	}
	none, err := Search(ctx, "anything", 5, nil, nil, emb)
	if err != nil || len(none) != 0 {
		t.Errorf("empty stores: %v, %v", none, err)
	}
}
