package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learnseed"
	"github.com/paige-dev/paige/internal/memory"
)

func TestMemorySearchBothStores(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	mem, err := memory.OpenEmbedded(ctx, filepath.Join(data, "memory.db"), embedding.NewLexical(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mem.AddMemories(ctx, "coach-7", "/proj", []memory.Memory{
		{Content: "Learner confused goroutine leaks with deadlocks", Importance: "high"},
		{Content: "Learner writes table-driven tests naturally"},
	}); err != nil {
		t.Fatal(err)
	}
	mem.Close()
	store, err := knowledge.Open(filepath.Join(data, "knowledge"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Append(
		learn.Entry{Type: learn.Rule, Content: "Always cancel contexts to avoid goroutine leaks", Entities: []string{"goroutine"}, Source: "session:abc", Confidence: 0.9},
		learn.Entry{Type: learn.Preference, Content: "User prefers pnpm over npm", Entities: []string{"pnpm"}, Source: "session:abc", Confidence: 0.9},
	); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"DATA_DIR": data, "HOME": t.TempDir()}

	out, errOut, err := runPaige(t, vars, "", "memory", "search", "goroutine", "leaks", "--json", "-n", "2")
	if err != nil {
		t.Fatalf("memory search: %v %s", err, errOut)
	}
	var hits []learnseed.Hit
	if err := json.Unmarshal([]byte(out), &hits); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	sources := map[string]bool{}
	for _, h := range hits {
		sources[h.Source] = true
		if !strings.Contains(h.Content, "goroutine") {
			t.Errorf("off-topic hit %+v", h)
		}
	}
	if len(hits) != 2 || !sources[learnseed.SourceMemory] || !sources[learnseed.SourceKnowledge] {
		t.Errorf("hits %+v, want the goroutine memory and the goroutine rule", hits)
	}

	text, _, err := runPaige(t, vars, "", "memory", "search", "pnpm")
	if err != nil || !strings.Contains(text, " 1. [knowledge preference] User prefers pnpm over npm") {
		t.Errorf("text output (%v):\n%s", err, text)
	}
	if _, _, err := runPaige(t, vars, "", "memory", "search"); err == nil {
		t.Error("search without a query accepted")
	}
}
