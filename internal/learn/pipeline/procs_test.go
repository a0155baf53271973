package pipeline

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
)

// Environment of the helper process TestHelperProcessLearn.
const (
	helperDirEnv = "PAIGE_LEARN_HELPER_DIR"
	helperNEnv   = "PAIGE_LEARN_HELPER_N"
)

// overlapping returns helper n's items: six per-tool rules out of ten,
// starting at tool n, so every tool is learned by several processes.
func overlapping(n int) []extract.Item {
	var items []extract.Item
	for k := range 6 {
		tool := fmt.Sprintf("tool%d", (n+k)%10)
		items = append(items, extract.Item{Type: "rule", Content: "Always run " + tool + " before committing",
			Confidence: 0.9, Entities: []string{tool}, Evidence: "User said so"})
	}
	return items
}

// TestHelperProcessLearn is not a test: it is the body of the processes
// TestConcurrentProcessesStoreOnce starts (re-executing the test binary).
// It waits for the go file, then runs the pipeline once into the store.
func TestHelperProcessLearn(t *testing.T) {
	dir := os.Getenv(helperDirEnv)
	if dir == "" {
		return // an ordinary test run
	}
	n, err := strconv.Atoi(os.Getenv(helperNEnv))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, err := os.Stat(filepath.Join(dir, "go")); err != nil; _, err = os.Stat(filepath.Join(dir, "go")) {
		if time.Now().After(deadline) {
			t.Fatal("no go file")
		}
		time.Sleep(time.Millisecond)
	}
	s, err := knowledge.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	turns := []learn.Turn{{Role: learn.User, Content: "Always run the linters before committing, never skip them."}}
	x := &scripted{items: overlapping(n)}
	if _, err := RunTurns(context.Background(), turns, "session:p"+strconv.Itoa(n), Options{Store: s, Extractor: x}); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentProcessesStoreOnce runs 8 real processes learning
// overlapping entries into one store at once, several trials: the
// read-dedup-append happens under the store's cross-process lock, so no
// entry is ever stored twice.
func TestConcurrentProcessesStoreOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 8 processes per trial")
	}
	for trial := range 4 {
		dir := t.TempDir()
		cmds := make([]*exec.Cmd, 8)
		outs := make([]*strings.Builder, 8)
		for i := range cmds {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessLearn$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperDirEnv+"="+dir, helperNEnv+"="+strconv.Itoa(i))
			outs[i] = &strings.Builder{}
			cmd.Stdout, cmd.Stderr = outs[i], outs[i]
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds[i] = cmd
		}
		if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		for i, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Fatalf("trial %d: helper %d: %v\n%s", trial, i, err, outs[i])
			}
		}
		s, err := knowledge.Open(filepath.Join(dir, "store"))
		if err != nil {
			t.Fatal(err)
		}
		entries, err := s.Entries()
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, e := range entries {
			seen[e.Content]++
		}
		if len(seen) != 10 || len(entries) != 10 {
			t.Fatalf("trial %d: %d entries, %d distinct (want 10 and 10): %v", trial, len(entries), len(seen), seen)
		}
	}
}
