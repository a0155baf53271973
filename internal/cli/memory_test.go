package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learnseed"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/memoryview"
	"github.com/paige-dev/paige/internal/memoryview/memoryviewtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// TestMemoryCommands drives `paige memory list|show|edit|pin|unpin|forget`
// and `paige seed proposals accept` through the CLI's entry point over
// real stores, and checks the stores after each.
func TestMemoryCommands(t *testing.T) {
	data, home := t.TempDir(), t.TempDir()
	store, es := memoryviewtest.Knowledge(t, data,
		learn.Entry{Type: learn.Procedure, Content: "Run the tests with go test ./...", Evidence: "ran 3 times", Source: "session:s-one", Confidence: 0.7},
		learn.Entry{Type: learn.Preference, Content: "User prefers pnpm over npm", Source: "session:s-two", Confidence: 0.9},
	)
	seedPath := filepath.Join(home, ".pai", "seed.json")
	res := memoryviewtest.Propose(t, store, seedPath, "s-two", es[1:])
	if len(res.Proposed) != 1 {
		t.Fatalf("loop: %+v", res)
	}
	memoryviewtest.Memories(t, data, "coach-1", "/p", memory.Memory{Content: "Learner mixes up slices and arrays"}).Close()
	vars := map[string]string{"DATA_DIR": data, "HOME": home, "PATH": testenv.ToolPath(t, "git"),
		"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1"}
	run := func(args ...string) string {
		t.Helper()
		out, errOut, err := runPaige(t, vars, "", args...)
		if err != nil {
			t.Fatalf("paige %s: %v\n%s", strings.Join(args, " "), err, errOut)
		}
		return out
	}

	out := run("memory", "list")
	for _, want := range []string{"Learned (2):", "go test ./...", "proposal pending", "Proposals (1):", "session:s-two", "Coach memories (1, editable):", "mem_coach-1_0"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	var v memoryview.View
	if err := json.Unmarshal([]byte(run("memory", "list", "pnpm", "--json")), &v); err != nil || len(v.Entries) != 1 || len(v.Memories) != 0 {
		t.Errorf("list pnpm --json: %+v, %v", v, err)
	}
	if out := run("memory", "show", es[0].ID); !strings.Contains(out, "evidence: ran 3 times") || !strings.Contains(out, "source: session:s-one") {
		t.Errorf("show:\n%s", out)
	}
	run("memory", "pin", es[0].ID)
	run("memory", "edit", es[0].ID, "Run the tests with go test -race ./...")
	run("memory", "edit", "mem_coach-1_0", "Learner now tells slices from arrays")
	got, _ := store.Active()
	if len(got) != 2 || !got[0].Pinned || got[0].Content != "Run the tests with go test -race ./..." {
		t.Errorf("after pin and edit: %+v", got)
	}
	if out := run("learn", "context", "--budget", "58"); !strings.Contains(out, "go test -race") {
		t.Errorf("the pinned entry is not in the context:\n%s", out)
	}
	run("memory", "unpin", es[0].ID)
	run("seed", "proposals", "accept", res.Proposed[0].ID)
	if out := run("memory", "list"); !strings.Contains(out, "proposal accepted") || !strings.Contains(out, "[pattern accepted]") {
		t.Errorf("the accepted proposal does not show:\n%s", out)
	}
	log, _ := exec.Command("git", "-C", filepath.Dir(seedPath), "log", "--format=%s").Output()
	if !strings.HasPrefix(string(log), "Confirm:") {
		t.Errorf("seed log: %s", log)
	}
	run("memory", "forget", es[1].ID)
	run("memory", "forget", "mem_coach-1_0")
	if got, _ := store.Active(); len(got) != 1 || got[0].ID != es[0].ID || got[0].Pinned {
		t.Errorf("after unpin and forget: %+v", got)
	}
	if out := run("memory", "list"); !strings.Contains(out, "Coach memories (0, editable)") || !strings.Contains(out, "1 forgotten") {
		t.Errorf("list after forgetting:\n%s", out)
	}
	for _, args := range [][]string{{"memory", "forget", "nope-nope"}, {"memory", "edit", es[0].ID, " "}, {"memory", "pin", es[1].ID}, {"memory", "show", "ab"}} {
		if _, errOut, err := runPaige(t, vars, "", args...); err == nil {
			t.Errorf("paige %v succeeded", args)
		} else if ee, ok := err.(*ExitError); !ok || ee.Code != 1 {
			t.Errorf("paige %v: %v (%s)", args, err, errOut)
		}
	}
}

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
