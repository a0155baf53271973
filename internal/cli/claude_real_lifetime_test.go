package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/memoryview/memoryviewtest"
	"github.com/paige-dev/paige/internal/seed"
)

// firstAgentRequest is the first request of Claude Code's agent loop (the
// one with tools) the fake received after skip requests.
func firstAgentRequest(t *testing.T, fake *llmtest.Server, skip int) llmtest.Request {
	t.Helper()
	for _, r := range fake.Requests()[skip:] {
		if len(r.Tools) > 0 {
			return r
		}
	}
	t.Fatal("no agent request")
	return llmtest.Request{}
}

// TestRealClaudeCodeSessionOutlivesProcess: the coaching session started
// by one `claude -p` outlives it (its SessionEnd wraps nothing up); a
// second process, and a resumed one, see the session's state in their
// first request; Claude asks Paige what it knows and gets answers from the
// coach memories, the learned knowledge and the seed. The SessionStart
// hook recorded the session in the seed, and doctor sees the plugin.
func TestRealClaudeCodeSessionOutlivesProcess(t *testing.T) {
	serverModel := newClaude(t)
	env := modelEnv(t, serverModel)
	memoryviewtest.Memories(t, env["DATA_DIR"], "coach-0", env["PROJECT_DIR"],
		memory.Memory{Content: "Learner confused token expiry with token refresh in the login flow", Importance: "high"}).Close()
	memoryviewtest.Knowledge(t, env["DATA_DIR"],
		learn.Entry{Type: learn.Rule, Content: "Always test the login flow with an expired token", Source: "session:abc", Confidence: 0.9})
	sd := seed.Defaults()
	sd.Learned.Insights = append(sd.Learned.Insights, seed.Learning{ID: "i-login", Content: "The login flow keeps its token in memory only",
		Source: "session:def", ExtractedAt: "2026-11-30T10:00:00Z", ConfirmedAt: "2026-12-01T09:00:00Z", Confirmed: true, Tags: []string{}})
	env["PAI_SEED_PATH"] = filepath.Join(env["HOME"], "server-seed.json")
	if err := seed.Write(env["PAI_SEED_PATH"], sd); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, env)
	fake := llmtest.NewServer(t)
	c := newRealClaude(t, s, fake)
	c.paige("seed", "setup", "--name", "Ada", "--ai-name", "Paige")
	script := coachScript(s.project)[:2] // start the session, read a file, then stop
	fake.Handle(func(r llmtest.Request) llmtest.Response {
		if len(r.Tools) == 0 {
			return llmtest.Text("ok")
		}
		if n := len(toolResults(r)); n < len(script) {
			return script[n]
		}
		return llmtest.Text("Phase 1 is yours: read src/auth.ts.")
	})
	out := c.run("/paige:coach Fix the login flow")
	if !strings.Contains(out, "Phase 1 is yours") {
		t.Fatalf("claude did not finish the script:\n%s", out)
	}
	db := openDB(t, s)
	sess, _ := db.Sessions(context.Background(), store.SessionFilter{})
	if len(sess) != 1 || sess[0].Status != coach.SessionActive {
		t.Fatalf("after the first process: sessions %+v, want one still active", sess)
	}
	if n := len(serverModel.Requests()); n != 0 {
		t.Errorf("the process's end made %d wrap-up calls", n)
	}
	st := mustSeed(t)(seed.Peek(filepath.Join(c.home, ".pai", "seed.json"))).State
	if st.LastSessionID == "" || !strings.Contains(out, `"session_id":"`+st.LastSessionID+`"`) {
		t.Errorf("the seed's last session %q is not Claude Code's session", st.LastSessionID)
	}

	// A second process asks what Paige knows, then stops.
	before := len(fake.Requests())
	search := []llmtest.Response{
		llmtest.ToolUse("toolu_know", mcpTool("paige_search_knowledge"), map[string]any{"query": "login flow token", "limit": 10}),
		llmtest.Text("Here is what Paige remembers."),
	}
	fake.Handle(func(r llmtest.Request) llmtest.Response {
		if len(r.Tools) == 0 {
			return llmtest.Text("ok")
		}
		if n := len(toolResults(r)); n < len(search) {
			return search[n]
		}
		return llmtest.Text("done")
	})
	out = c.run("What do you know about my login flow?", "--allowedTools", mcpTool("paige_search_knowledge"))
	first := requestText(firstAgentRequest(t, fake, before))
	for _, want := range []string{"Paige coaching session active in this project", sess[0].ID, "/paige:finish", "paige session end"} {
		if !strings.Contains(first, want) {
			t.Errorf("the second process's first request lacks %q", want)
		}
	}
	var answer string
	for _, r := range fake.Requests()[before:] {
		for _, tr := range toolResults(r) {
			if tr["tool_use_id"] == "toolu_know" {
				answer = resultText(tr)
			}
		}
	}
	var hits struct {
		Hits []struct{ Source, ID, Date string } `json:"hits"`
	}
	// Claude Code may append a system reminder after the tool's JSON.
	if err := json.NewDecoder(strings.NewReader(answer)).Decode(&hits); err != nil {
		t.Fatalf("paige_search_knowledge answered %q: %v\n%s", answer, err, out)
	}
	sources := map[string]bool{}
	for _, h := range hits.Hits {
		sources[h.Source] = h.ID != "" && h.Date != ""
	}
	if !sources["memory"] || !sources["knowledge"] || !sources["seed"] {
		t.Errorf("hits %+v, want the memory, the knowledge entry and the seed learning, each with id and date", hits.Hits)
	}

	// A resumed conversation sees the state too.
	before = len(fake.Requests())
	c.run("And now?", "--continue")
	if first := requestText(firstAgentRequest(t, fake, before)); !strings.Contains(first, "Paige coaching session active in this project") {
		t.Error("the resumed process's first request lacks the coaching state")
	}
	if got, _ := db.Session(context.Background(), sess[0].ID); got.Status != coach.SessionActive {
		t.Errorf("after three processes the session is %s", got.Status)
	}
	if doc, _, _ := runBinary(t, append(c.env, "PAIGE_OFFLINE=1", "PROJECT_DIR="+s.project), "", "doctor"); !strings.Contains(lineOf(doc, "claude hooks"), "plugin loaded from") ||
		!strings.HasPrefix(lineOf(doc, "claude mcp"), "✓") {
		t.Errorf("doctor does not see the --plugin-dir plugin:\n%s", doc)
	}
}

// TestRealClaudeCodeOfflineFinishLiftsGuard: with no model, /paige:finish
// still ends the session at once: a Write refused before it goes through
// right after it, in the same Claude Code run, and the wrap-up waits.
func TestRealClaudeCodeOfflineFinishLiftsGuard(t *testing.T) {
	s := startServe(t, serveEnv(t))
	fake := llmtest.NewServer(t)
	c := newRealClaude(t, s, fake)
	notes := filepath.Join(s.project, "NOTES.md")
	script := []llmtest.Response{
		llmtest.ToolUse("toolu_start", mcpTool("paige_start_session"), map[string]any{"goal": "learn the login flow"}),
		llmtest.ToolUse("toolu_write1", "Write", map[string]any{"file_path": notes, "content": "during\n"}),
		llmtest.ToolUse("toolu_end", mcpTool("paige_end_session"), map[string]any{"sessionTranscript": "short"}),
		llmtest.ToolUse("toolu_write2", "Write", map[string]any{"file_path": notes, "content": "after\n"}),
		llmtest.Text("Finished."),
	}
	fake.Handle(func(r llmtest.Request) llmtest.Response {
		if len(r.Tools) == 0 {
			return llmtest.Text("ok")
		}
		if n := len(toolResults(r)); n < len(script) {
			return script[n]
		}
		return llmtest.Text("done")
	})
	allowed := []string{mcpTool("paige_start_session"), mcpTool("paige_end_session"), "Write"}
	out := c.run("Coach me, then finish.", "--allowedTools", strings.Join(allowed, ","))
	results := map[string]string{}
	for _, r := range fake.Requests() {
		for _, tr := range toolResults(r) {
			results[tr["tool_use_id"].(string)] = resultText(tr)
		}
	}
	if !strings.Contains(results["toolu_write1"], "Paige coaching session is active") {
		t.Errorf("the Write during coaching: %q", results["toolu_write1"])
	}
	if !strings.Contains(results["toolu_end"], "wrapUpQueued") {
		t.Errorf("paige_end_session offline: %q", results["toolu_end"])
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "after\n" {
		t.Errorf("NOTES.md = %q (%v): the Write after finishing should have gone through\n%s", b, err, out)
	}
	db := openDB(t, s)
	sess, _ := db.Sessions(context.Background(), store.SessionFilter{})
	if len(sess) != 1 || sess[0].Status != coach.SessionCompleted || wrapUpStatus(t, db, sess[0].ID) != store.WrapUpPending {
		t.Errorf("sessions %+v, want one completed with its wrap-up pending", sess)
	}
}

// TestRealClaudeCodeMarketplaceInstall: the repository root is a
// marketplace: `claude plugin marketplace add <repo>` and `claude plugin
// install paige@paige` install the plugin, enabled, from plugin/.
func TestRealClaudeCodeMarketplaceInstall(t *testing.T) {
	s := startServe(t, serveEnv(t))
	c := newRealClaude(t, s, llmtest.NewServer(t))
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"plugin", "validate", repo}, {"plugin", "marketplace", "add", repo}, {"plugin", "install", "paige@paige"}} {
		if out, errOut, code := runClaudeCLI(t, c, args...); code != 0 {
			t.Fatalf("claude %v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	out, _, _ := runClaudeCLI(t, c, "plugin", "list")
	if !strings.Contains(out, "paige@paige") || !strings.Contains(out, filepath.Join(repo, "plugin")) || !strings.Contains(out, "enabled") {
		t.Errorf("claude plugin list:\n%s", out)
	}
	settings := string(mustRead(t, filepath.Join(c.home, ".claude", "settings.json")))
	if !strings.Contains(settings, `"paige@paige": true`) {
		t.Errorf("settings.json:\n%s", settings)
	}
}
