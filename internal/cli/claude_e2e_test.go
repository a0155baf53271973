package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/llm/llmtest"
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
	return runBinHook(c.tb, c.bin, append(c.env, extraEnv...), hookInputJSON(c.tb, in), "hook", event)
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

// rustPortKnowledge is what a model could honestly extract from rustPort's
// one signal turn; each item's evidence is quoted verbatim from the
// transcript (the test checks that the prompt contains it).
var rustPortKnowledge = extract.Extraction{Items: []extract.Item{
	{Type: "decision", Content: "Port the Python project to Rust as a standalone library without Python bindings", Confidence: 1,
		Evidence: "Port this Python project to Rust. Create a standalone Rust library (no Python bindings needed).", Entities: []string{"Python", "Rust"}},
	{Type: "rule", Content: "Keep the Justfile as the build entry point and have it run the Rust tests", Confidence: 0.9,
		Evidence: "keep the Justfile - update it to run Rust tests instead", Entities: []string{"Justfile", "Rust"}},
	{Type: "fact", Content: "The project is a Python codebase being replaced by a Rust library; the Python sources are deleted after the port", Confidence: 0.8,
		Evidence: "Delete all the Python source files when you're done", Entities: []string{"Python", "Rust"}},
	{Type: "preference", Content: "The assistant may ask the user clarifying questions instead of guessing", Confidence: 0.7,
		Evidence: "You can ask me questions if you need clarification.", Entities: []string{"assistant"}},
}}

// rustPortWant is the proposal each rustPortKnowledge item becomes:
// decision and rule → pattern, fact → insight, an item about the assistant
// → self_knowledge.
var rustPortWant = []seed.Proposal{
	{Type: seed.TypePattern, Content: rustPortKnowledge.Items[0].Content},
	{Type: seed.TypePattern, Content: rustPortKnowledge.Items[1].Content},
	{Type: seed.TypeInsight, Content: rustPortKnowledge.Items[2].Content},
	{Type: seed.TypeSelfKnowledge, Content: rustPortKnowledge.Items[3].Content},
}

// newModelClaudeCode is newClaudeCode with a Claude key: the hooks (and
// the detached worker they start, which inherits the environment) reach
// the fake Messages API at fake's URL, extract with the haiku tier, and
// keep the seed at PAI_SEED_PATH. It returns the seed path.
func newModelClaudeCode(tb testing.TB, fake *llmtest.Server) (*claudeCode, string) {
	tb.Helper()
	c := newClaudeCode(tb)
	c.env = slices.DeleteFunc(c.env, func(kv string) bool { return strings.HasPrefix(kv, "PAIGE_OFFLINE=") })
	seedPath := filepath.Join(tb.TempDir(), "seed.json")
	c.env = append(c.env, "ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL="+fake.URL(),
		"PAIGE_LEARN_MODEL=haiku", "PAIGE_EXTRACTOR=model", "PAIGE_LEARN_QUEUE=detached", "PAI_SEED_PATH="+seedPath) // every signal turn to the model (auto would send this task request to none)
	return c, seedPath
}

// TestClaudeCodeEndToEndModel is the proof with a model: the real
// Rust-port transcript, unmodified, goes through session-end; the detached
// worker sends its signal turn to Claude (the llmtest fake, reached by the
// official SDK over loopback), and the fake's answer becomes seed
// proposals; one is accepted with the CLI and shows at the next
// SessionStart. Ending the session again costs no second model call.
func TestClaudeCodeEndToEndModel(t *testing.T) {
	fake := llmtest.NewServer(t)
	fake.Enqueue(llmtest.JSON(rustPortKnowledge).WithUsage(1200, 300)) // one answer only: a second call gets a 500
	c, seedPath := newModelClaudeCode(t, fake)
	c.paige("seed", "setup", "--name", "Ada", "--ai-name", "Paige")
	transcript := unmodifiedTranscript(t)
	in := func(event string, kv ...string) map[string]any {
		m := map[string]any{"session_id": "e2e-model-1", "transcript_path": transcript, "cwd": t.TempDir(), "hook_event_name": event}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}

	if out := c.hook("session-start", in("SessionStart", "source", "startup")); !strings.Contains(out, "Ada") || strings.Contains(out, "Pending proposals") {
		t.Fatalf("first session-start:\n%s", out)
	}
	end := in("SessionEnd", "reason", "prompt_input_exit")
	if out := c.hook("session-end", end); out != "" {
		t.Fatalf("session-end printed %q", out)
	}
	c.waitQueue()

	reqs := fake.WaitRequests(t, 1, 10*time.Second)
	checkExtractRequest(t, reqs[0])
	props := checkModelProposals(t, c, seedPath)
	if out := c.hook("session-start", in("SessionStart", "source", "startup")); !strings.Contains(out, "Pending proposals (4):") {
		t.Errorf("session-start does not list the 4 pending proposals:\n%s", out)
	}

	var accepted seed.Proposal // the Justfile rule (proposed first: rules and procedures lead)
	for _, p := range props {
		if strings.Contains(p.Content, "Justfile") {
			accepted = p
		}
	}
	c.paige("seed", "proposals", "accept", accepted.ID[:8])
	next := c.hook("session-start", in("SessionStart", "source", "startup", "session_id", "e2e-model-2"))
	if !strings.Contains(next, accepted.Content) || !strings.Contains(next, "Pending proposals (3):") {
		t.Errorf("next session-start lacks the accepted learning %q (or still lists it as pending):\n%s", accepted.Content, next)
	}
	if got := mustSeed(t)(seed.Peek(seedPath)).Learned.Patterns; !slices.ContainsFunc(got, func(l seed.Learning) bool { return l.Content == accepted.Content }) {
		t.Errorf("seed patterns after accept = %+v, want one with %q", got, accepted.Content)
	}

	checkNoSecondCall(t, c, fake, end, seedPath)
}

// unmodifiedTranscript copies rustPort into a temp dir byte for byte (the
// queue keys on the path, and the test must not depend on testdata's
// location) and returns the copy's path.
func unmodifiedTranscript(tb testing.TB) string {
	tb.Helper()
	b := mustRead(tb, rustPort)
	if !strings.Contains(string(b), rustPortTask) {
		tb.Fatalf("%s no longer states %q", rustPort, rustPortTask)
	}
	p := filepath.Join(tb.TempDir(), filepath.Base(rustPort))
	writeFile(tb, p, string(b))
	return p
}

// checkExtractRequest asserts what the official SDK sent for the learn
// extraction: the haiku tier's model id, the extraction prompt, the JSON
// schema of [extract.Extraction] as output_config.format, and the
// transcript's user text (every scripted item's evidence) in the prompt.
func checkExtractRequest(tb testing.TB, r llmtest.Request) {
	tb.Helper()
	if r.Model != config.DefaultModelHaiku {
		tb.Errorf("model = %q, want the haiku tier %q", r.Model, config.DefaultModelHaiku)
	}
	if got := r.Header.Get("X-Api-Key"); got != "test" {
		tb.Errorf("x-api-key = %q, want test", got)
	}
	if r.System != extract.Prompt {
		tb.Errorf("system prompt = %q, want extract.Prompt", r.System)
	}
	if typ, _ := r.OutputFormat["type"].(string); typ != "json_schema" {
		tb.Errorf("output_config.format = %v, want type json_schema", r.OutputFormat)
	}
	items, _ := r.Schema()["properties"].(map[string]any)["items"].(map[string]any)
	itemProps, _ := items["items"].(map[string]any)["properties"].(map[string]any)
	enum, _ := itemProps["type"].(map[string]any)["enum"].([]any)
	wantEnum := []any{"preference", "fact", "rule", "procedure", "correction", "decision"}
	if diff := cmp.Diff(wantEnum, enum); diff != "" {
		tb.Errorf("schema items[].type enum (-want +got):\n%s\nschema: %v", diff, r.Schema())
	}
	prompt := r.LastUserText()
	if !strings.HasPrefix(prompt, "TRANSCRIPT:\n[") || !strings.Contains(prompt, "[USER]: Port this Python project to Rust.") ||
		!strings.Contains(prompt, rustPortTask) {
		tb.Errorf("prompt lacks the transcript's user turn:\n%s", prompt)
	}
	for _, it := range rustPortKnowledge.Items {
		if !strings.Contains(prompt, it.Evidence) {
			tb.Errorf("prompt lacks the evidence %q of the scripted answer", it.Evidence)
		}
	}
}

// checkModelProposals asserts that the seed at seedPath holds exactly the
// proposals rustPortWant, pending, from session e2e-model-1 with method acr
// and the model's confidence, and returns them.
func checkModelProposals(tb testing.TB, c *claudeCode, seedPath string) []seed.Proposal {
	tb.Helper()
	res, err := seed.Peek(seedPath)
	if err != nil {
		tb.Fatalf("seed %s: %+v; learn.log:\n%s", seedPath, err, c.log())
	}
	got := res.Seed.State.Proposals
	var want []seed.Proposal
	for i, w := range rustPortWant {
		conf := rustPortKnowledge.Items[i].Confidence
		w.Source, w.Method, w.Status, w.Confidence = "session:e2e-model-1", seed.MethodACR, seed.StatusPending, &conf
		want = append(want, w)
	}
	ignore := cmp.FilterPath(func(p cmp.Path) bool {
		f := p.Last().String()
		return f == ".ID" || f == ".ExtractedAt"
	}, cmp.Ignore())
	byContent := cmpopts.SortSlices(func(a, b seed.Proposal) bool { return a.Content < b.Content }) // the order is learnseed's ranking, tested there
	if diff := cmp.Diff(want, got, ignore, byContent); diff != "" {
		tb.Fatalf("seed proposals (-want +got):\n%s\nlearn.log:\n%s", diff, c.log())
	}
	for _, p := range got {
		if len(p.ID) < 8 {
			tb.Fatalf("proposal id %q too short to accept by an 8-character prefix", p.ID)
		}
	}
	return got
}

// checkNoSecondCall ends the same session again and runs the worker
// directly as well: nothing is queued, the fake gets no second request, and
// the seed and the knowledge store are unchanged.
func checkNoSecondCall(tb testing.TB, c *claudeCode, fake *llmtest.Server, end map[string]any, seedPath string) {
	tb.Helper()
	before := mustRead(tb, seedPath)
	if out := c.hook("session-end", end); out != "" {
		tb.Fatalf("second session-end printed %q", out)
	}
	c.paige("hook", "learn-queue") // what a detached worker would do, run to completion
	c.waitQueue()
	if n := len(fake.Requests()); n != 1 {
		tb.Errorf("got %d model calls after a repeated session-end, want 1", n)
	}
	if done, _ := filepath.Glob(filepath.Join(c.data, "learn-queue", "done", "*.json")); len(done) != 1 {
		tb.Errorf("done queue items = %v, want one", done)
	}
	if after := mustRead(tb, seedPath); string(after) != string(before) {
		tb.Errorf("the seed changed after a repeated session-end:\n%s", after)
	}
	if n := strings.Count(c.log(), `"msg":"learned"`); n != 1 {
		tb.Errorf("learn.log has %d learned lines, want 1:\n%s", n, c.log())
	}
	entries, err := os.ReadFile(filepath.Join(c.data, "knowledge", "entries.jsonl"))
	// the tool trail's 7: language: Rust, cargo test, cargo llvm-cov (twice), just check, lint, format
	if n := strings.Count(string(entries), `"observed":`); n != 7 {
		tb.Errorf("knowledge store holds %d entries learned from the trail, want 7:\n%s", n, entries)
	}
	if n := strings.Count(string(entries), "\n") - 7; err != nil || n != len(rustPortKnowledge.Items) {
		tb.Errorf("knowledge store holds %d entries (%v), want %d:\n%s", n, err, len(rustPortKnowledge.Items), entries)
	}
}
