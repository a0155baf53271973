package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learnseed"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/memoryview/memoryviewtest"
)

func TestMemorySearchBothStores(t *testing.T) {
	data := t.TempDir()
	memoryviewtest.Memories(t, data, "coach-7", "/proj",
		memory.Memory{Content: "Learner confused goroutine leaks with deadlocks", Importance: "high"},
		memory.Memory{Content: "Learner writes table-driven tests naturally"},
	).Close()
	memoryviewtest.Knowledge(t, data,
		learn.Entry{Type: learn.Rule, Content: "Always cancel contexts to avoid goroutine leaks", Entities: []string{"goroutine"}, Source: "session:abc", Confidence: 0.9},
		learn.Entry{Type: learn.Preference, Content: "User prefers pnpm over npm", Entities: []string{"pnpm"}, Source: "session:abc", Confidence: 0.9},
	)
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
