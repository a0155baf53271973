package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLearnExtractTrailAcrossSessions: paige learn extract learns how to
// start the project from the fixture's tool trail; a second session of the
// same project doing the same grows the entry's evidence and confidence,
// and the summary says so; --no-trail learns none of it.
func TestLearnExtractTrailAcrossSessions(t *testing.T) {
	env := learnEnv(t)
	store := filepath.Join(t.TempDir(), "kb")
	raw, err := os.ReadFile(learnTranscripts + "/cc-2.1.38-tool_heavy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range []string{"one", "two"} {
		os.WriteFile(filepath.Join(dir, n+".jsonl"), raw, 0o644)
	}
	out, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", filepath.Join(dir, "one.jsonl"), "--store", store)
	if code != 0 || !strings.Contains(out, "From the tool trail: 2 new, 0 seen again") ||
		!strings.Contains(out, "[procedure] start the project: mix phx.server (confidence: 0.5)") {
		t.Fatalf("first session: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = runLearnBin(t, env, "learn", "extract", "-i", filepath.Join(dir, "two.jsonl"), "--store", store)
	if !strings.Contains(out, "From the tool trail: 0 new, 2 seen again") {
		t.Errorf("second session:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, "three.jsonl"), raw, 0o644)
	out, _, _ = runLearnBin(t, env, "learn", "extract", "-i", filepath.Join(dir, "three.jsonl"), "--store", store, "--json")
	if sum := decodeSummary(t, out); len(sum.Updated) != 2 || sum.Updated[0].Observed.SessionCount != 3 || sum.Stats.EntriesUpdated != 2 {
		t.Errorf("--json summary of a third session: %+v", sum)
	}
	out, _, _ = runLearnBin(t, env, "learn", "show", "--store", store)
	if !strings.Contains(out, "[procedure] start the project: mix phx.server (0.8, session:one)") || strings.Count(out, "mix phx.server") != 1 {
		t.Errorf("show:\n%s", out)
	}
	md, _ := os.ReadFile(filepath.Join(store, "knowledge.md"))
	if !strings.Contains(string(md), "start the project: mix phx.server (project: /home/marco/projects/spotter)") {
		t.Errorf("knowledge.md:\n%s", md)
	}

	out, _, _ = runLearnBin(t, env, "learn", "extract", "-i", filepath.Join(dir, "one.jsonl"), "--store", t.TempDir(), "--no-trail")
	if strings.Contains(out, "mix phx.server") || strings.Contains(out, "From the tool trail") {
		t.Errorf("--no-trail learned from the trail:\n%s", out)
	}
}
