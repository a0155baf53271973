package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	"github.com/paige-dev/paige/internal/coach/prompts/memorysummary"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/testenv"
)

var pipelineArgs = map[string]any{"planText": "1. read\n2. fix", "issueSummary": "OAuth token refresh race"}

func badRequest() llmtest.Response {
	return llmtest.Error(400, "invalid_request_error", "scripted failure")
}

// Scenario 9.13: both tools need an active session.
func TestServeCoachingToolsNeedSession(t *testing.T) {
	fake := newClaude(t)
	s := startServe(t, modelEnv(t, fake))
	cs := s.mcpClient(t)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{{"paige_run_coaching_pipeline", pipelineArgs}, {"paige_end_session", map[string]any{"sessionTranscript": "x"}}} {
		if msg := callTool(t, cs, tc.tool, tc.args, nil); msg != "No active session" {
			t.Errorf("%s: %q, want No active session", tc.tool, msg)
		}
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("model requests = %d, want 0", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
	}
	if len(tools.Tools) != 17 || !names["paige_start_session"] || !names["paige_run_coaching_pipeline"] || !names["paige_end_session"] {
		t.Errorf("tools/list has %d tools: %v", len(tools.Tools), names)
	}
	editor := s.ws(t)
	editor.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{})
	var init wsapi.ConnectionInit
	editor.expect(wsapi.TypeConnectionInit, &init)
	if f := init.FeatureFlags; !f["explain"] || !f["review"] || !f["practice"] {
		t.Errorf("featureFlags = %v", f)
	}
}

// Offline (PAIGE_OFFLINE=1, no key): the pipeline is a clear error and
// stores nothing; ending still works: the session ends at once, the
// read-only guard lifts with it, and the wrap-up is queued.
func TestServeCoachingToolsOffline(t *testing.T) {
	s := startServe(t, serveEnv(t))
	db := openDB(t, s)
	editor, cs := s.ws(t), s.mcpClient(t)
	sid := startSession(t, editor, "offline")
	if msg := callTool(t, cs, "paige_run_coaching_pipeline", pipelineArgs, nil); !strings.Contains(msg, "no model configured") {
		t.Errorf("pipeline: %q, want no model configured", msg)
	}
	if _, err := db.LatestPlan(context.Background(), sid); err == nil {
		t.Error("a plan was stored offline")
	}
	vars := map[string]string{"DATA_DIR": s.data, "HOME": t.TempDir()}
	edit := preToolUseJSON(t, s.project, "Edit", map[string]string{"file_path": s.project + "/main.go"})
	if out, _ := runClaudeHook(t, vars, edit, "pre-tool-use"); !strings.Contains(out, `"deny"`) {
		t.Fatalf("active session: the guard allowed an Edit: %q", out)
	}
	var end mcpapi.EndSessionOut
	if msg := callTool(t, cs, "paige_end_session", map[string]any{"sessionTranscript": "x"}, &end); msg != "" || !end.WrapUpQueued {
		t.Fatalf("paige_end_session offline: %q %+v, want the session ended and its wrap-up queued", msg, end)
	}
	if row, _ := db.Session(context.Background(), sid); row.Status != coach.SessionCompleted {
		t.Errorf("session status = %s, want completed", row.Status)
	}
	if st := wrapUpStatus(t, db, sid); st != store.WrapUpPending {
		t.Errorf("wrap-up = %s, want pending", st)
	}
	if out, errOut := runClaudeHook(t, vars, edit, "pre-tool-use"); out != "" || errOut != "" {
		t.Errorf("ended offline: the guard still answers %q %q", out, errOut)
	}
	// Story 11 offline: a toast that says what to do.
	editor.send(wsapi.TypeUserExplain, explainPayload("x"))
	var e wsapi.ExplainError
	editor.expect(wsapi.TypeExplainError, &e)
	if e.Error != "Explain This needs Claude, and no model is configured: set ANTHROPIC_API_KEY and restart Paige." {
		t.Errorf("explain offline: %q", e.Error)
	}
	editor.send(wsapi.TypeUserReview, map[string]any{"kataId": "k"})
	var re wsapi.ReviewError
	editor.expect(wsapi.TypeReviewError, &re)
	if re.Error != "Kata not found" { // the kata is looked up before the model is needed
		t.Errorf("review offline: %q", re.Error)
	}
}

// Scenario 9.4 (SC-056): the coach agent fails → tool error, no plan, no
// broadcast, the failure in api_call_log.
func TestServeCoachingPipelineCoachFails(t *testing.T) {
	fake := newClaude(t)
	s, db, editor, sid := startCoaching(t, fake, "fails")
	cs := s.mcpClient(t)
	fake.Enqueue(llmtest.Message("refusal", llmtest.TextBlock("no")))
	msg := callTool(t, cs, "paige_run_coaching_pipeline", pipelineArgs, nil)
	if !strings.Contains(msg, "coach agent") {
		t.Errorf("tool error = %q", msg)
	}
	if _, err := db.LatestPlan(context.Background(), sid); err == nil {
		t.Error("a plan was stored")
	}
	if calls := apiCalls(t, db, coachagent.CallType); len(calls) != 1 || calls[0].LatencyMs != -1 {
		t.Errorf("api_call_log = %+v", calls)
	}
	// The editor got nothing from the pipeline: the next message is our marker.
	editor.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{})
	for _, typ := range editor.typesUntil(wsapi.TypeConnectionInit) {
		if typ == wsapi.TypeCoachingPlanReady || typ == wsapi.TypeEditorHighlightLines || typ == wsapi.TypeExplorerHintFiles {
			t.Errorf("editor received %s after a failed pipeline", typ)
		}
	}
	if n := len(actionsOf(t, db, sid, coach.ActionCoachingPipeline, 0)); n != 0 {
		t.Errorf("coaching_pipeline logged %d times", n)
	}
}

// Scenario 9.3: memories exist but the Haiku filter fails → the coach runs
// with no memories and a warning is logged.
func TestServeCoachingPipelineFilterFails(t *testing.T) {
	fake := newClaude(t)
	env := modelEnv(t, fake)
	seedMemory(t, env, "Fixed an OAuth token refresh race with a mutex")
	s := startServe(t, env)
	editor, cs := s.ws(t), s.mcpClient(t)
	startSession(t, editor, "filter fails")
	fake.Enqueue(badRequest(), llmtest.JSON(threePhases(nil)))
	var out mcpapi.PipelineOut
	if msg := callTool(t, cs, "paige_run_coaching_pipeline", pipelineArgs, &out); msg != "" {
		t.Fatal(msg)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 || reqs[0].System != memoryfilter.SystemPrompt || !strings.Contains(reqs[0].LastUserText(), "mutex") {
		t.Fatalf("requests = %d", len(reqs))
	}
	if mems := userJSON(t, reqs[1])["relevant_memories"].([]any); len(mems) != 0 || out.MemoryConnection != nil {
		t.Errorf("coach got memories %v", mems)
	}
	if !strings.Contains(s.out.String(), "memory filtering failed") {
		t.Error("no warning logged")
	}
	editor.expect(wsapi.TypeCoachingPlanReady, nil)
}

// Scenario 9.2: the ChromaDB backend is down → no memories, no filter call,
// the pipeline completes.
func TestServeCoachingPipelineMemoryDown(t *testing.T) {
	fake := newClaude(t)
	env := modelEnv(t, fake)
	env["PAIGE_MEMORY"], env["CHROMADB_URL"] = "chroma", "http://"+closedAddr(t)
	s := startServe(t, env)
	editor, cs := s.ws(t), s.mcpClient(t)
	startSession(t, editor, "memory down")
	invented := "Like the OAuth race you fixed last week" // EC-56: no memory, so no connection, whatever the model says
	fake.Enqueue(llmtest.JSON(threePhases(&invented)))
	var out mcpapi.PipelineOut
	if msg := callTool(t, cs, "paige_run_coaching_pipeline", pipelineArgs, &out); msg != "" {
		t.Fatal(msg)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].System != coachagent.SystemPrompt || len(out.Phases) != 3 || out.MemoryConnection != nil {
		t.Errorf("requests %d, out %+v", len(reqs), out)
	}
	var ready wsapi.PlanReady
	editor.expect(wsapi.TypeCoachingPlanReady, &ready)
	if ready.MemoryConnection != nil {
		t.Errorf("coaching:plan_ready memoryConnection = %q, want null", *ready.MemoryConnection)
	}
}

// Scenarios 9.6 and 9.7 (SC-058, SC-061): best-effort wrap-up steps.
func TestServeWrapUpBestEffort(t *testing.T) {
	okDreyfus := llmtest.JSON(dreyfusassessment.Response{Assessments: []dreyfusassessment.Assessment{
		{SkillArea: "OAuth", Stage: "novice", Confidence: 0.3, Evidence: "e", Recommendation: "r"}}})
	okMemory := llmtest.JSON(memorysummary.Response{Memories: []memorysummary.Memory{{Content: "m", Tags: []string{}, Importance: "low"}}})
	for _, tc := range []struct {
		name    string
		script  []llmtest.Response
		want    mcpapi.EndSessionOut
		failed  int
		gapRows int
	}{
		{"gap extraction fails", []llmtest.Response{badRequest(), okDreyfus, okMemory},
			mcpapi.EndSessionOut{DreyfusUpdates: 1, MemoriesStored: 1, SessionStatus: "completed"}, 1, 0},
		{"all three fail", []llmtest.Response{badRequest(), badRequest(), badRequest()},
			mcpapi.EndSessionOut{SessionStatus: "completed"}, 3, 0},
		{"nothing to report (EC-58..60)", []llmtest.Response{
			llmtest.JSON(knowledgegaps.Response{KnowledgeGaps: []knowledgegaps.Gap{}, KataSpecs: []knowledgegaps.KataSpec{}}),
			llmtest.JSON(dreyfusassessment.Response{Assessments: []dreyfusassessment.Assessment{}}),
			llmtest.JSON(memorysummary.Response{Memories: []memorysummary.Memory{}})},
			mcpapi.EndSessionOut{SessionStatus: "completed"}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := newClaude(t)
			s, db, editor, sid := startCoaching(t, fake, tc.name)
			cs := s.mcpClient(t)
			fake.Enqueue(tc.script...)
			var out mcpapi.EndSessionOut
			if msg := callTool(t, cs, "paige_end_session", map[string]any{"sessionTranscript": "short"}, &out); msg != "" {
				t.Fatal(msg)
			}
			if out != tc.want {
				t.Errorf("result = %+v, want %+v", out, tc.want)
			}
			if n := len(fake.Requests()); n != 3 {
				t.Errorf("model calls = %d, want 3 (every step runs)", n)
			}
			if row, _ := db.Session(context.Background(), sid); row.Status != coach.SessionCompleted {
				t.Errorf("status = %s", row.Status)
			}
			failed := 0
			for _, ct := range []string{knowledgegaps.CallType, dreyfusassessment.CallType, memorysummary.CallType} {
				for _, c := range apiCalls(t, db, ct) {
					if c.LatencyMs == -1 {
						failed++
					}
				}
			}
			if failed != tc.failed {
				t.Errorf("failed api calls logged = %d, want %d", failed, tc.failed)
			}
			var done wsapi.SessionCompleted
			editor.expect(wsapi.TypeSessionCompleted, &done)
			if done.SessionID != sid || done.DreyfusUpdates != tc.want.DreyfusUpdates {
				t.Errorf("session:completed = %+v", done)
			}
		})
	}
}

// seedMemory stores one memory in the embedded store the server will open.
func seedMemory(tb testing.TB, env map[string]string, content string) {
	tb.Helper()
	cfg, err := configFor(env)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := memory.FromConfig(context.Background(), cfg, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	if n, err := st.AddMemories(context.Background(), "old-session", "demo", []memory.Memory{{Content: content, Tags: []string{"oauth"}}}); err != nil || n != 1 {
		tb.Fatalf("seed memory: %d, %v", n, err)
	}
}

// closedAddr is a local address nothing listens on.
var closedAddr = testenv.ClosedAddr
