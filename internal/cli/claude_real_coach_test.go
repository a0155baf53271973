package cli

import (
	"context"
	"encoding/json"
	"os"
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
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

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
	fake.Handle(func(r llmtest.Request) llmtest.Response {
		if len(r.Tools) == 0 { // side requests (titles, summaries): not the agent loop
			return llmtest.Text("ok")
		}
		if n := len(toolResults(r)); n < len(script) {
			return script[n]
		}
		return llmtest.Text("done")
	})
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
