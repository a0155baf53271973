package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/dashboard"
	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	"github.com/paige-dev/paige/internal/coach/prompts/memorysummary"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/memoryview/memoryviewtest"
	"github.com/paige-dev/paige/internal/seed"
	"github.com/paige-dev/paige/internal/testenv"
)

// realClaude runs the real Claude Code CLI (PAIGE_TEST_CLAUDE) against a
// fake Messages API, with the repository's plugin loaded by --plugin-dir.
type realClaude struct {
	tb   testing.TB
	bin  string
	fake *llmtest.Server
	env  []string
	cwd  string
	home string
}

func newRealClaude(tb testing.TB, s *served, fake *llmtest.Server) *realClaude {
	tb.Helper()
	bin := testenv.Service(tb, "PAIGE_TEST_CLAUDE", "Claude Code CLI")
	paige := builtPaige(tb)
	home := tb.TempDir()
	port := s.base[strings.LastIndex(s.base, ":")+1:]
	env := []string{
		"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"PATH=" + filepath.Dir(paige) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"ANTHROPIC_BASE_URL=" + fake.URL(), "ANTHROPIC_API_KEY=sk-ant-test",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "PORT=" + port, "DATA_DIR=" + s.data,
		"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		// The SessionEnd hook only queues the transcript: a detached learn
		// worker would still be writing HOME/.pai when the test removes it
		// (learning from a real session end is claude_e2e_test.go's, which
		// waits for the worker).
		"PAIGE_LEARN_QUEUE=off",
	}
	return &realClaude{tb: tb, bin: bin, fake: fake, env: env, cwd: s.project, home: home}
}

// run runs `claude -p prompt` and returns its stream-json output.
func (c *realClaude) run(prompt string, extra ...string) string {
	c.tb.Helper()
	plugin, err := filepath.Abs("../../plugin")
	if err != nil {
		c.tb.Fatal(err)
	}
	args := append([]string{"-p", prompt, "--plugin-dir", plugin, "--output-format", "stream-json", "--verbose",
		"--max-turns", "20", "--model", "claude-sonnet-4-5"}, extra...)
	out, errOut, err := c.exec(3*time.Minute, args...)
	c.tb.Logf("claude stderr:\n%s", errOut)
	if err != nil {
		c.tb.Fatalf("claude: %v\nstdout:\n%s", err, out)
	}
	return out
}

// exec runs `claude args…` in c's project with c's environment, killed
// after timeout, and returns its stdout, stderr and how it ended.
func (c *realClaude) exec(timeout time.Duration, args ...string) (string, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = c.cwd, c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

// paige runs the built paige with Claude Code's environment (same HOME,
// DATA_DIR and seed as the hooks see).
func (c *realClaude) paige(args ...string) string {
	c.tb.Helper()
	return runBinHook(c.tb, builtPaige(c.tb), append(c.env, "PAIGE_OFFLINE=1"), "", args...)
}

// searchMemory runs `paige memory search` on the server's DATA_DIR.
func searchMemory(tb testing.TB, s *served, query string) string {
	tb.Helper()
	env := []string{"HOME=" + tb.TempDir(), "DATA_DIR=" + s.data, "PROJECT_DIR=" + s.project, "PAIGE_OFFLINE=1", "PATH=" + os.Getenv("PATH")}
	return runBinHook(tb, builtPaige(tb), env, "", "memory", "search", query)
}

// runClaudeCLI runs `claude args…` (a non-interactive subcommand) with
// c's environment and returns stdout, stderr and the exit code.
func runClaudeCLI(tb testing.TB, c *realClaude, args ...string) (string, string, int) {
	tb.Helper()
	out, errOut, err := c.exec(2*time.Minute, args...)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatal(err)
	}
	return out, errOut, code
}

// mcpTool is the name Claude Code gives a tool of the plugin's MCP server.
func mcpTool(name string) string { return "mcp__plugin_paige_paige__" + name }

// coachScript is what the fake model does when the coach skill runs, one
// step per tool result it has received: what the skill's instructions ask.
func coachScript(project string) []llmtest.Response {
	authTS := filepath.Join(project, "src", "auth.ts")
	return []llmtest.Response{
		llmtest.ToolUse("toolu_start", mcpTool("paige_start_session"), map[string]any{"goal": "Fix the login flow", "issueTitle": "Login returns true"}),
		llmtest.ToolUse("toolu_read", "Read", map[string]any{"file_path": authTS}),
		llmtest.ToolUse("toolu_write", "Write", map[string]any{"file_path": authTS, "content": "solved for you\n"}),
		llmtest.ToolUse("toolu_pipeline", mcpTool("paige_run_coaching_pipeline"), map[string]any{
			"planText": "1. Read the auth flow in src/auth.ts\n2. Fix the race\n3. Test it", "issueSummary": "login() always returns true"}),
		llmtest.ToolUse("toolu_highlight", mcpTool("paige_highlight_lines"), map[string]any{"path": "src/auth.ts", "start": 1, "end": 2, "style": "hint", "hoverText": "look here"}),
		llmtest.ToolUse("toolu_phase", mcpTool("paige_update_phase"), map[string]any{"phase": 1, "status": "complete"}),
		llmtest.ToolUse("toolu_end", mcpTool("paige_end_session"), map[string]any{"sessionTranscript": "goal: fix the login flow; phase 1 done with one hint"}),
		llmtest.Text("Session wrapped up: work on OAuth token refresh next."),
	}
}

// toolResults returns the tool_result blocks of r's messages, in order.
func toolResults(r llmtest.Request) []map[string]any {
	var out []map[string]any
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b["type"] == "tool_result" {
				out = append(out, b)
			}
		}
	}
	return out
}

// agentScript answers Claude Code's agent loop with script[n] once it has
// received n tool results, then with the text last; side requests
// (titles, summaries: no tools) get "ok".
func agentScript(script []llmtest.Response, last string) func(llmtest.Request) llmtest.Response {
	return func(r llmtest.Request) llmtest.Response {
		if len(r.Tools) == 0 {
			return llmtest.Text("ok")
		}
		if n := len(toolResults(r)); n < len(script) {
			return script[n]
		}
		return llmtest.Text(last)
	}
}

// resultText is a tool_result's text, whether its content is a string or blocks.
func resultText(b map[string]any) string {
	switch c := b["content"].(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, x := range c {
			if m, ok := x.(map[string]any); ok && m["type"] == "text" {
				parts = append(parts, m["text"].(string))
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// resultTexts maps each tool_use_id to the text of its last tool_result in reqs.
func resultTexts(reqs []llmtest.Request) map[string]string {
	texts := map[string]string{}
	for _, r := range reqs {
		for _, tr := range toolResults(r) {
			id, _ := tr["tool_use_id"].(string)
			texts[id] = resultText(tr)
		}
	}
	return texts
}

// wrapUpAnswers are the server model's answers to the wrap-up's three calls.
func wrapUpAnswers() []llmtest.Response {
	return []llmtest.Response{
		llmtest.JSON(knowledgegaps.Response{
			KnowledgeGaps: []knowledgegaps.Gap{{Topic: "OAuth token refresh", Evidence: "needed a hint", Severity: "high", RelatedConcepts: []string{}}},
			KataSpecs: []knowledgegaps.KataSpec{{Title: "Refresh tokens safely", Description: "Serialise refreshes", ScaffoldingCode: "function refresh() {}",
				TestCases: []string{"two refreshes share one request"}, Constraints: []string{"Use a mutex"}}},
			SessionSummary: knowledgegaps.SessionSummary{PhasesCompleted: 1, TotalTimeMinutes: 5, HintsUsed: 1},
		}),
		llmtest.JSON(dreyfusassessment.Response{Assessments: []dreyfusassessment.Assessment{
			{SkillArea: "OAuth", Stage: "novice", Confidence: 0.4, Evidence: "new to token refresh", Recommendation: "line hints"}}}),
		llmtest.JSON(memorysummary.Response{Memories: []memorysummary.Memory{
			{Content: "Fixed login() returning true by checking the token", Tags: []string{"auth"}, Importance: "high"}}}),
	}
}

// TestRealClaudeCodeCoaching is issue 13's proof: the real Claude Code CLI,
// with the repository's plugin, runs /paige:coach against a running paige
// serve; the fake model does what the skill asks. It asserts what reached
// Paige (SQLite rows, the memory store) and what Claude Code sent the model
// (seed context, the skill's instructions, Paige's tool results).
func TestRealClaudeCodeCoaching(t *testing.T) {
	serverModel := newClaude(t)
	s := startServe(t, modelEnv(t, serverModel))
	fake := llmtest.NewServer(t)
	c := newRealClaude(t, s, fake)
	c.paige("seed", "setup", "--name", "Ada", "--ai-name", "Paige")
	serverModel.Enqueue(llmtest.JSON(threePhases(nil)))
	serverModel.Enqueue(wrapUpAnswers()...)
	script := coachScript(s.project)
	fake.Handle(agentScript(script, "done"))
	// Start, Read, pipeline and highlight are allowed by the coach skill's
	// allowed-tools; updating the phase and ending belong to the review
	// and finish skills, so this one run allows them itself. Write is
	// allowed so that only the read-only hook can refuse it.
	allowed := []string{mcpTool("paige_update_phase"), mcpTool("paige_end_session"), "Write"}
	// The plugin's output style is opt-in: Claude Code names it
	// "<plugin>:<style name>" and applies it when the outputStyle setting
	// names it (docs/plugin.md), here through --settings.
	out := c.run("/paige:coach Fix the login flow", "--allowedTools", strings.Join(allowed, ","),
		"--settings", `{"outputStyle":"`+coachOutputStyle+`"}`)
	if !strings.Contains(out, "Session wrapped up") {
		t.Fatalf("claude did not finish the script:\n%s", out)
	}
	checkSentToModel(t, fake, s.project)
	checkOutputStyle(t, fake, true)
	checkReachedPaige(t, s)
}

// coachOutputStyle is the name Claude Code gives plugin/output-styles/coach.md.
const coachOutputStyle = "paige:Paige Coach"

// outputStyleBody is plugin/output-styles/coach.md without its frontmatter:
// the instructions Claude Code puts in the system prompt.
func outputStyleBody(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile("../../plugin/output-styles/coach.md")
	if err != nil {
		tb.Fatal(err)
	}
	parts := strings.SplitN(string(b), "---\n", 3)
	if len(parts) != 3 || !strings.Contains(parts[1], "name: Paige Coach") {
		tb.Fatalf("coach.md has no frontmatter naming the style %q", coachOutputStyle)
	}
	return strings.TrimSpace(parts[2])
}

// requestText is everything a request gave the model to read: its system
// prompt and the text blocks of its messages.
func requestText(r llmtest.Request) string {
	parts := []string{r.System}
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if text, ok := b["text"].(string); ok && b["type"] == "text" {
				parts = append(parts, text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// checkOutputStyle: with the coach output style selected (want), every
// agent-loop request carries its instructions. Claude Code 2.1.x switches
// its system prompt to the output-style form ("…according to your
// \"Output Style\"…") and puts the style itself, headed "# Output Style:
// paige:Paige Coach", in a system reminder of the first user turn. With
// the style not selected none of that is sent: the plugin does not force
// its persona on every session.
func checkOutputStyle(t *testing.T, fake *llmtest.Server, want bool) {
	t.Helper()
	body := outputStyleBody(t)
	n := 0
	for _, r := range fake.Requests() {
		if len(r.Tools) == 0 {
			continue
		}
		n++
		text := requestText(r)
		got := map[string]bool{
			"the style's instructions":       strings.Contains(text, body),
			"its heading":                    strings.Contains(text, "# Output Style: "+coachOutputStyle),
			"the output-style system prompt": strings.Contains(r.System, `"Output Style"`),
		}
		for what, ok := range got {
			if ok != want {
				t.Errorf("request %d: %s sent = %v, want %v", n, what, ok, want)
			}
		}
		if t.Failed() {
			t.Logf("request %d as sent:\n%s", n, text)
			return
		}
	}
	if n == 0 {
		t.Error("no agent-loop request reached the model")
	}
}

// checkSentToModel: the seed context, the skill's instructions, and Paige's
// answers (including the read-only hook's denial) reached the model.
func checkSentToModel(t *testing.T, fake *llmtest.Server, project string) {
	t.Helper()
	var last llmtest.Request
	for _, r := range fake.Requests() {
		if len(r.Tools) > 0 {
			last = r
		}
	}
	var all strings.Builder
	for _, m := range last.Messages {
		b, _ := json.Marshal(m.Content)
		all.Write(b)
	}
	sent := all.String() + last.System
	skill, err := os.ReadFile("../../plugin/skills/coach/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Ada", "Paige: start coaching", "Call `paige_run_coaching_pipeline`", "Fix the login flow",
		"does not write code for you"} {
		if !strings.Contains(sent, want) {
			t.Errorf("the model never saw %q", want)
		}
	}
	if !strings.Contains(string(skill), "Paige: start coaching") {
		t.Fatal("the coach skill lost its heading")
	}
	results := toolResults(last)
	byID := map[string]map[string]any{}
	for _, r := range results {
		byID[r["tool_use_id"].(string)] = r
	}
	for id, want := range map[string]string{
		"toolu_start": "sessionId", "toolu_read": "export function login", "toolu_write": "Paige coaching session is active",
		"toolu_pipeline": "Read the auth flow", "toolu_end": "completed",
	} {
		if got := resultText(byID[id]); !strings.Contains(got, want) {
			t.Errorf("tool result %s = %q, want it to contain %q", id, got, want)
		}
	}
	if byID["toolu_write"]["is_error"] != true {
		t.Errorf("the Write during coaching was not refused: %v", byID["toolu_write"])
	}
	if b, _ := os.ReadFile(filepath.Join(project, "src", "auth.ts")); strings.Contains(string(b), "solved for you") {
		t.Error("the Write went through during coaching")
	}
}

// checkReachedPaige: session, plan, phases, hints, phase events, the
// wrap-up's gap, kata and Dreyfus stage, and the stored memory.
func checkReachedPaige(t *testing.T, s *served) {
	t.Helper()
	ctx := context.Background()
	db := openDB(t, s)
	sessions, err := db.Sessions(ctx, store.SessionFilter{})
	if err != nil || len(sessions) != 1 {
		t.Fatalf("sessions = %+v, %v", sessions, err)
	}
	sess := sessions[0]
	if sess.Status != coach.SessionCompleted || sess.ProjectDir != s.project {
		t.Errorf("session = %+v", sess)
	}
	acts := actionsOf(t, db, sess.ID, coach.ActionCoachingPipeline, 1)
	if len(acts) != 1 {
		t.Fatalf("coaching_pipeline actions = %v", acts)
	}
	planID, _ := dataOf(t, acts[0])["planId"].(string)
	plan, err := db.Plan(ctx, planID)
	if err != nil || !strings.Contains(plan.RawPlanText, "Fix the race") {
		t.Errorf("plan = %+v, %v", plan, err)
	}
	phases, err := db.Phases(ctx, planID)
	if err != nil || len(phases) != 3 || phases[0].Status != coach.PhaseComplete {
		t.Fatalf("phases = %+v, %v", phases, err)
	}
	if hints, _ := db.PhaseHints(ctx, phases[0].ID, ""); len(hints) == 0 {
		t.Error("phase 1 has no hints")
	}
	evs, _ := db.ProgressEvents(ctx, phases[0].ID)
	progress := map[string]int{}
	for _, e := range evs {
		progress[e.EventType]++
	}
	if progress["hint_used"] == 0 || progress["phase_completed"] != 1 {
		t.Errorf("phase 1 progress events = %v, want hints used and one completion", progress)
	}
	if st, err := dashboard.State(ctx, db.DB(), dashboard.PeriodAll, time.Now()); err != nil || st.Stats.HintsUsed != progress["hint_used"] {
		t.Errorf("dashboard hintsUsed = %d (%v), want %d", st.Stats.HintsUsed, err, progress["hint_used"])
	}
	if acts := actionsOf(t, db, sess.ID, coach.ActionPhaseCompleted, 1); len(acts) != 1 || dataOf(t, acts[0])["phaseNumber"] != 1.0 {
		t.Errorf("phase_completed actions = %v", acts)
	}
	if acts := actionsOf(t, db, sess.ID, coach.ActionMCPToolCall, 4); len(acts) < 4 {
		t.Errorf("mcp_tool_call actions = %d, want the 4 calls after the start", len(acts))
	}
	gaps, _ := db.KnowledgeGaps(ctx, storeGapFilter(sess.ID))
	katas, _ := db.Katas(ctx, "")
	dreyfus, _ := db.DreyfusAssessments(ctx)
	if len(gaps) != 1 || gaps[0].Topic != "OAuth token refresh" || len(katas) != 1 || len(dreyfus) != 1 || dreyfus[0].SkillArea != "OAuth" {
		t.Errorf("wrap-up rows: gaps %+v katas %d dreyfus %+v", gaps, len(katas), dreyfus)
	}
	if acts := actionsOf(t, db, sess.ID, coach.ActionSessionEnd, 1); len(acts) != 1 {
		t.Errorf("session_end actions = %v", acts)
	}
	if mem := searchMemory(t, s, "login token"); !strings.Contains(mem, "Fixed login() returning true") {
		t.Errorf("memory store:\n%s", mem)
	}
}

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
	fake.Handle(agentScript(script, "Phase 1 is yours: read src/auth.ts."))
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
	fake.Handle(agentScript(search, "done"))
	out = c.run("What do you know about my login flow?", "--allowedTools", mcpTool("paige_search_knowledge"))
	first := requestText(firstAgentRequest(t, fake, before))
	for _, want := range []string{"Paige coaching session active in this project", sess[0].ID, "/paige:finish", "paige session end"} {
		if !strings.Contains(first, want) {
			t.Errorf("the second process's first request lacks %q", want)
		}
	}
	answer := resultTexts(fake.Requests()[before:])["toolu_know"]
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
	fake.Handle(agentScript(script, "done"))
	allowed := []string{mcpTool("paige_start_session"), mcpTool("paige_end_session"), "Write"}
	out := c.run("Coach me, then finish.", "--allowedTools", strings.Join(allowed, ","))
	results := resultTexts(fake.Requests())
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
