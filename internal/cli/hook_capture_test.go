package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/seed"
)

// TestPromptSubmitCapturesForAKilledProcess: UserPromptSubmit queues the
// transcript (once while it waits, however often the developer prompts),
// learns nothing itself, and a Claude Code process killed without its
// SessionEnd loses nothing: the next session's SessionEnd worker learns
// from the queued transcript too, once.
func TestPromptSubmitCapturesForAKilledProcess(t *testing.T) {
	data := t.TempDir()
	seedFile := filepath.Join(t.TempDir(), "seed.json")
	vars := map[string]string{"DATA_DIR": data, "PAIGE_LEARN_QUEUE": "inline", "PAI_SEED_PATH": seedFile, "HOME": t.TempDir()}
	killed := ruleTranscript(t)
	prompt := hookInputJSON(t, map[string]any{"session_id": "killed-1", "transcript_path": killed, "cwd": t.TempDir(),
		"hook_event_name": "UserPromptSubmit", "prompt": "port it"})
	for range 3 {
		if out, errOut := runClaudeHook(t, vars, prompt, "prompt-submit"); out != "" || errOut != "" {
			t.Fatalf("prompt-submit printed %q %q", out, errOut)
		}
		f, err := os.OpenFile(killed, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("\n") // the conversation goes on: the transcript grows
		f.Close()
	}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	pending, err := learnQueue(cfg).Pending()
	if err != nil || len(pending) != 1 || pending[0].SessionID != "killed-1" {
		t.Fatalf("queue = %+v (%v), want the killed session's transcript once", pending, err)
	}
	if _, err := os.Stat(seedFile); !os.IsNotExist(err) {
		t.Fatalf("prompt-submit learned at once (seed %v); learning belongs to the batch at the end", err)
	}
	// The process dies: no SessionEnd. The next session ends normally.
	next := unmodifiedTranscript(t)
	runClaudeHook(t, vars, sessionEndJSON(next), "session-end")
	res, err := seed.Peek(seedFile)
	if err != nil || len(res.Seed.State.Proposals) != 1 || res.Seed.State.Proposals[0].Content != rustPortRule ||
		res.Seed.State.Proposals[0].Source != "session:killed-1" {
		log, _ := os.ReadFile(filepath.Join(data, "logs", "learn.log"))
		t.Fatalf("proposals %+v (%v), want the killed session's rule; learn.log:\n%s", res.Seed, err, log)
	}
	if p, _ := learnQueue(cfg).Pending(); len(p) != 0 {
		t.Errorf("still pending: %+v", p)
	}
	log := string(mustRead(t, filepath.Join(data, "logs", "learn.log")))
	if n := strings.Count(log, `"msg":"learned"`); n != 2 {
		t.Errorf("%d transcripts learned from, want 2 (the killed one and the ended one):\n%s", n, log)
	}
}
