package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/seed"
	"github.com/paige-dev/paige/internal/testenv"
)

// claudeCode plays Claude Code against a built paige: same binary, same
// stdin JSON, a private HOME and DATA_DIR.
type claudeCode struct {
	tb   testing.TB
	bin  string
	env  []string
	home string
	data string
}

func newClaudeCode(tb testing.TB) *claudeCode {
	tb.Helper()
	c := &claudeCode{tb: tb, bin: builtPaige(tb), home: tb.TempDir(), data: tb.TempDir()}
	c.env = []string{"HOME=" + c.home, "DATA_DIR=" + c.data, "PATH=" + testenv.ToolPath(tb, "git"),
		"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "PAIGE_OFFLINE=1"}
	return c
}

// hook runs `paige hook <event>` with the documented input fields.
func (c *claudeCode) hook(event string, in map[string]any, extraEnv ...string) string {
	c.tb.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		c.tb.Fatal(err)
	}
	return runBinHook(c.tb, c.bin, append(c.env, extraEnv...), string(b), "hook", event)
}

func (c *claudeCode) paige(args ...string) string {
	c.tb.Helper()
	return runBinHook(c.tb, c.bin, c.env, "", args...)
}

// TestClaudeCodeEndToEnd is the proof: a session starts, writes are
// denied only while coaching, the session ends and its real transcript is
// learned from by the detached worker, the user accepts the proposal with
// the CLI, and the next session starts with it as a confirmed learning.
func TestClaudeCodeEndToEnd(t *testing.T) {
	c := newClaudeCode(t)
	c.paige("seed", "setup", "--name", "Ada", "--ai-name", "Paige")
	transcript := ruleTranscript(t)
	cwd := t.TempDir()
	base := map[string]any{"session_id": "e2e-1", "transcript_path": transcript, "cwd": cwd}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}

	first := c.hook("session-start", with("hook_event_name", "SessionStart", "source", "startup"))
	if !strings.Contains(first, "Ada") || strings.Contains(first, rustPortRule) {
		t.Fatalf("first session-start:\n%s", first)
	}

	write := with("hook_event_name", "PreToolUse", "tool_name", "Write", "tool_input", map[string]any{"file_path": cwd + "/a.go", "content": "x"})
	if out := c.hook("pre-tool-use", write); out != "" {
		t.Errorf("Write outside coaching: %q, want allowed", out)
	}
	if out := c.hook("pre-tool-use", write, "PAIGE_MODE=coach"); !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("Write while coaching: %q, want a deny", out)
	}

	end := with("hook_event_name", "SessionEnd", "reason", "prompt_input_exit")
	start := time.Now()
	if out := c.hook("session-end", end); out != "" {
		t.Fatalf("session-end printed %q", out)
	}
	t.Logf("session-end returned in %v (detached worker running)", time.Since(start))
	c.waitQueue()

	res, err := seed.Peek(filepath.Join(c.home, ".pai", "seed.json"))
	if err != nil || len(res.Seed.State.Proposals) != 1 {
		t.Fatalf("proposals after the worker: %+v; learn.log:\n%s", res.Seed.State.Proposals, c.log())
	}
	p := res.Seed.State.Proposals[0]
	if p.Content != rustPortRule || p.Source != "session:e2e-1" {
		t.Fatalf("proposal %+v", p)
	}
	if out := c.hook("session-start", with("hook_event_name", "SessionStart", "source", "startup")); !strings.Contains(out, "Pending proposals (1):") || !strings.Contains(out, rustPortRule) {
		t.Errorf("session-start does not show the pending proposal:\n%s", out)
	}

	c.paige("seed", "proposals", "accept", p.ID)
	next := c.hook("session-start", with("hook_event_name", "SessionStart", "source", "startup", "session_id", "e2e-2"))
	if !strings.Contains(next, rustPortRule) || strings.Contains(next, "Pending proposals") {
		t.Errorf("next session-start lacks the accepted learning:\n%s", next)
	}

	// Ending the same session again queues nothing and proposes nothing.
	c.hook("session-end", end)
	c.waitQueue()
	if n := len(mustSeed(t)(seed.Peek(filepath.Join(c.home, ".pai", "seed.json"))).State.Proposals); n != 1 {
		t.Errorf("got %d proposals after a repeated session-end, want 1", n)
	}
}

// waitQueue waits until the learn queue is empty (the detached worker finished).
func (c *claudeCode) waitQueue() {
	c.tb.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		queued, _ := filepath.Glob(filepath.Join(c.data, "learn-queue", "*.json"))
		working, _ := filepath.Glob(filepath.Join(c.data, "learn-queue", "*.working"))
		pending := append(queued, working...)
		done, _ := filepath.Glob(filepath.Join(c.data, "learn-queue", "done", "*.json"))
		failed, _ := filepath.Glob(filepath.Join(c.data, "learn-queue", "failed", "*.json"))
		if len(failed) > 0 {
			c.tb.Fatalf("learning failed; learn.log:\n%s", c.log())
		}
		if len(pending) == 0 && len(done) > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.tb.Fatalf("the learn queue did not drain; learn.log:\n%s", c.log())
}

func (c *claudeCode) log() string {
	b, _ := os.ReadFile(filepath.Join(c.data, "logs", "learn.log"))
	return string(b)
}
