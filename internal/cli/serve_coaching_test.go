package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/prompts/coachagent"
	"github.com/paige-dev/paige/internal/coach/prompts/dreyfusassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	"github.com/paige-dev/paige/internal/coach/prompts/memoryfilter"
	"github.com/paige-dev/paige/internal/coach/prompts/memorysummary"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/testenv"
)

func strp(s string) *string { return &s }

// threePhases is a coach agent reply with file and line hints (scenario 9.8).
func threePhases(conn *string) coachagent.Response {
	phase := func(n int, title, level string, hints coachagent.Hints) coachagent.Phase {
		return coachagent.Phase{Number: n, Title: title, Description: "Do " + title, ExpectedFiles: []string{"src/auth.ts"},
			HintLevel: level, Hints: hints, KnowledgeGapOpportunities: []string{}}
	}
	return coachagent.Response{Phases: []coachagent.Phase{
		phase(1, "Read the auth flow", "line", coachagent.Hints{
			FileHints: []coachagent.FileHint{{Path: "src/auth.ts", Style: "important"}, {Path: "src/missing.ts", Style: "suggested"}},
			LineHints: []coachagent.LineHint{{Path: "src/auth.ts", Start: 2, End: 2, Style: "focus", HoverText: "the race is here"}}}),
		phase(2, "Fix the race", "file", coachagent.Hints{FileHints: []coachagent.FileHint{{Path: "src/auth.ts", Style: "critical"}},
			LineHints: []coachagent.LineHint{}}),
		phase(3, "Test it", "none", coachagent.Hints{FileHints: []coachagent.FileHint{}, LineHints: []coachagent.LineHint{}}),
	}, MemoryConnection: conn, EstimatedDifficulty: "intermediate"}
}

// Scenarios 9.1, 9.2 (no memories yet: EC-55), 9.5, 9.8–9.12, EC-62, EC-63,
// then 9.1 again with the memories the wrap-up stored (9.11 end to end).
func TestServeCoachingPipelineAndWrapUp(t *testing.T) {
	fake := newClaude(t)
	s := startServe(t, modelEnv(t, fake))
	db := openDB(t, s)
	ctx := context.Background()
	existing, err := db.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "React state management", Stage: coach.AdvancedBeginner, Confidence: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	editor, cs := s.ws(t), s.mcpClient(t)
	sid := startSession(t, editor, "Fix OAuth race")
	checkFirstPipeline(t, fake, db, editor, cs, sid)
	callTool(t, cs, "paige_update_phase", map[string]any{"phase": 1, "status": "complete"}, nil)
	checkWrapUp(t, fake, db, editor, cs, sid)
	checkWrapUpStored(t, db, sid, existing)
	checkRecall(t, fake, db, editor, cs, sid)
}

// checkFirstPipeline: 9.1 with no memories yet (EC-55), 9.8, 9.12, FR-115.
func checkFirstPipeline(t *testing.T, fake *claude, db *store.Store, editor *wsClient, cs *mcp.ClientSession, sid string) mcpapi.PipelineOut {
	ctx := context.Background()
	// Pipeline, no memories stored yet: no filter call, coach only.
	fake.Enqueue(llmtest.JSON(threePhases(nil)).WithUsage(1200, 800))
	var out mcpapi.PipelineOut
	if msg := callTool(t, cs, "paige_run_coaching_pipeline", map[string]any{"planText": "1. read auth\n2. fix race\n3. test",
		"issueSummary": "OAuth callback races with token refresh", "issueNumber": 7}, &out); msg != "" {
		t.Fatal(msg)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d, want 1 (coach agent only)", len(reqs))
	}
	coachReq := reqs[0]
	if coachReq.Model != config.DefaultModelSonnet || coachReq.MaxTokens != 4096 || coachReq.System != coachagent.SystemPrompt ||
		coachReq.Schema() == nil || len(coachReq.Tools) != 0 {
		t.Errorf("coach request: model %s, max_tokens %d, schema %v, tools %v", coachReq.Model, coachReq.MaxTokens, coachReq.Schema() != nil, coachReq.Tools)
	}
	checkStructured(t, coachReq, "phases", "memory_connection", "estimated_difficulty")
	u := userJSON(t, coachReq)
	if u["dreyfus_stage"] != "advanced_beginner" || // the only assessment, no topic match: lowest stage
		len(u["relevant_memories"].([]any)) != 0 || !strings.Contains(u["plan"].(string), "fix race") {
		t.Errorf("coach user message = %v", u)
	}
	if out.PlanID == "" || len(out.Phases) != 3 || out.MemoryConnection != nil || out.EstimatedDifficulty != "intermediate" ||
		out.Phases[0] != (mcpapi.PipelinePhase{Number: 1, Title: "Read the auth flow", Description: "Do Read the auth flow", HintLevel: "line"}) {
		t.Errorf("tool result = %+v", out)
	}
	// 9.12 and FR-115: plan_ready, then the first phase's hints only.
	var ready wsapi.PlanReady
	editor.expect(wsapi.TypeCoachingPlanReady, &ready)
	if ready.PlanID != out.PlanID || len(ready.Phases) != 3 || ready.Phases[1].Status != "pending" || ready.EstimatedDifficulty != "intermediate" {
		t.Errorf("plan_ready = %+v", ready)
	}
	var hl wsapi.HighlightLines
	editor.expect(wsapi.TypeEditorHighlightLines, &hl)
	if hl != (wsapi.HighlightLines{Path: "src/auth.ts", Start: 2, End: 2, Style: "focus", HoverText: "the race is here"}) {
		t.Errorf("highlight = %+v", hl)
	}
	var hints wsapi.ExplorerHintFiles
	editor.expect(wsapi.TypeExplorerHintFiles, &hints)
	wantHints := []wsapi.FileHint{{Path: "src/auth.ts", Style: "important"}, {Path: "src/missing.ts", Style: "suggested"}} // EC-64
	if diff := cmp.Diff(wantHints, hints.Hints); diff != "" {
		t.Errorf("hint_files (-want +got):\n%s", diff)
	}
	// 9.8: SQLite.
	phases, err := db.Phases(ctx, out.PlanID)
	if err != nil || len(phases) != 3 {
		t.Fatalf("phases = %v, %v", phases, err)
	}
	// Phase 1 is where the developer starts: active; the others wait.
	for i, ph := range phases {
		want := coach.PhasePending
		if i == 0 {
			want = coach.PhaseActive
		}
		if ph.Number != i+1 || ph.Status != want || (i == 0) != (ph.StartedAt != nil) {
			t.Errorf("phase %d = %+v, want %s", i, ph, want)
		}
	}
	// The plan's own pointers are not hints the developer used.
	if n := countHintsUsed(t, db, phases[0].ID); n != 0 {
		t.Errorf("%d hint_used progress events after the pipeline, want 0", n)
	}
	fileHints, _ := db.PhaseHints(ctx, phases[0].ID, coach.HintTypeFile)
	lineHints, _ := db.PhaseHints(ctx, phases[0].ID, coach.HintTypeLine)
	hints2, _ := db.PhaseHints(ctx, phases[1].ID, "")
	if len(fileHints) != 2 || len(lineHints) != 1 || *lineHints[0].StartLine != 2 || *lineHints[0].HoverText != "the race is here" || len(hints2) != 1 {
		t.Errorf("hints: file %v line %v phase2 %v", fileHints, lineHints, hints2)
	}
	if calls := apiCalls(t, db, coachagent.CallType); len(calls) != 1 || calls[0].LatencyMs < 1 || calls[0].InputTokens != 1200 || calls[0].SessionID != sid {
		t.Errorf("api_call_log coach_agent = %+v", calls)
	}
	if acts := actionsOf(t, db, sid, coach.ActionCoachingPipeline, 1); len(acts) != 1 || dataOf(t, acts[0])["planId"] != out.PlanID {
		t.Errorf("coaching_pipeline actions = %v", acts)
	}
	return out
}

// countHintsUsed counts the hint_used progress events of a phase.
func countHintsUsed(tb testing.TB, db *store.Store, phaseID string) int {
	tb.Helper()
	evs, err := db.ProgressEvents(context.Background(), phaseID)
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.EventType == "hint_used" {
			n++
		}
	}
	return n
}

// checkWrapUp: 9.5 with a transcript over 50k chars (EC-63), then EC-62.
func checkWrapUp(t *testing.T, fake *claude, db *store.Store, editor *wsClient, cs *mcp.ClientSession, sid string) {
	// Wrap-up (9.5), transcript over 50k chars (EC-63).
	fake.Enqueue(
		llmtest.JSON(knowledgegaps.Response{
			KnowledgeGaps: []knowledgegaps.Gap{
				{Topic: "OAuth token refresh", Evidence: "needed 3 hints", Severity: "high", RelatedConcepts: []string{"race conditions"}},
				{Topic: "React state management", Evidence: "stale closure", Severity: "medium", RelatedConcepts: []string{}},
			},
			KataSpecs: []knowledgegaps.KataSpec{{Title: "Refresh tokens safely", Description: "Serialise OAuth token refresh",
				ScaffoldingCode: "function refresh() {}", TestCases: []string{"two refreshes share one request"},
				Constraints: []string{"No globals: keep state in a closure", "Use a mutex"}, FollowUpConstraint: strp("Handle timeouts")}},
			SessionSummary: knowledgegaps.SessionSummary{PhasesCompleted: 1, TotalTimeMinutes: 30, HintsUsed: 3},
		}),
		llmtest.JSON(dreyfusassessment.Response{Assessments: []dreyfusassessment.Assessment{
			{SkillArea: "React state management", Stage: "competent", PreviousStage: strp("advanced_beginner"), Confidence: 0.7, Evidence: "fixed it alone", Recommendation: "directional hints"},
			{SkillArea: "OAuth", Stage: "novice", Confidence: 0.4, Evidence: "new to token refresh", Recommendation: "line hints"},
		}}),
		llmtest.JSON(memorysummary.Response{Memories: []memorysummary.Memory{
			{Content: "Fixed an OAuth token refresh race by serialising refreshes behind a mutex", Tags: []string{"oauth", "race condition"}, Importance: "high"},
			{Content: "Struggled with stale closures in React state updates", Tags: []string{"react"}, Importance: "medium"},
		}}),
	)
	transcript := strings.Repeat("user: why does refresh race?\nclaude: two callbacks...\n", 1500) // ~78k chars
	var end mcpapi.EndSessionOut
	if msg := callTool(t, cs, "paige_end_session", map[string]any{"sessionTranscript": transcript}, &end); msg != "" {
		t.Fatal(msg)
	}
	wantEnd := mcpapi.EndSessionOut{KnowledgeGaps: 2, KataSpecs: 1, DreyfusUpdates: 2, MemoriesStored: 2, SessionStatus: "completed"}
	if end != wantEnd {
		t.Errorf("end = %+v, want %+v", end, wantEnd)
	}
	var completed wsapi.SessionCompleted
	editor.expect(wsapi.TypeSessionCompleted, &completed)
	if completed != (wsapi.SessionCompleted{SessionID: sid, KnowledgeGaps: 2, KataSpecs: 1, DreyfusUpdates: 2, MemoriesStored: 2}) {
		t.Errorf("session:completed = %+v", completed)
	}
	reqs := fake.Requests()[1:]
	if len(reqs) != 3 {
		t.Fatalf("wrap-up requests = %d, want 3", len(reqs))
	}
	for i, want := range []struct{ model, system string }{
		{config.DefaultModelSonnet, knowledgegaps.SystemPrompt},
		{config.DefaultModelSonnet, dreyfusassessment.SystemPrompt},
		{config.DefaultModelHaiku, memorysummary.SystemPrompt},
	} {
		if reqs[i].Model != want.model || reqs[i].System != want.system || reqs[i].Schema() == nil || reqs[i].MaxTokens != 4096 {
			t.Errorf("wrap-up request %d: model %s system %.40q", i, reqs[i].Model, reqs[i].System)
		}
	}
	checkStructured(t, reqs[0], "knowledge_gaps", "kata_specs", "session_summary")
	checkStructured(t, reqs[1], "assessments")
	checkStructured(t, reqs[2], "memories")
	gapUser := userJSON(t, reqs[0])
	if !strings.Contains(reqs[0].LastUserText(), `"action_type":"coaching_pipeline"`) || len(gapUser["phases"].([]any)) != 3 {
		t.Errorf("gap extraction input lacks the action log or phases: %.300s", reqs[0].LastUserText())
	}
	dreyUser := userJSON(t, reqs[1])
	if recent := dreyUser["recent_session"].(map[string]any); recent["phases_completed"] != 1.0 {
		t.Errorf("dreyfus recent_session = %v", recent)
	}
	memUser := userJSON(t, reqs[2])
	if tr := memUser["transcript"].(string); len(tr) > memorysummary.MaxTranscriptChars+100 || !strings.Contains(tr, "chars omitted") {
		t.Errorf("transcript not truncated: %d chars", len(tr))
	}
	// EC-62: a second call is a no-op: no model call, nothing stored.
	var again mcpapi.EndSessionOut
	if msg := callTool(t, cs, "paige_end_session", map[string]any{"sessionTranscript": "again"}, &again); msg != "" {
		t.Fatal(msg)
	}
	if again != (mcpapi.EndSessionOut{SessionStatus: "completed", AlreadyCompleted: true}) || len(fake.Requests()) != 4 {
		t.Errorf("second end = %+v, requests %d", again, len(fake.Requests()))
	}

}

// checkWrapUpStored: 9.9, 9.10 in SQLite.
func checkWrapUpStored(t *testing.T, db *store.Store, sid string, existing coach.DreyfusAssessment) {
	ctx := context.Background()
	gaps, _ := db.KnowledgeGaps(ctx, storeGapFilter(sid))
	katas, _ := db.Katas(ctx, "")
	if len(gaps) != 2 || len(katas) != 1 {
		t.Fatalf("gaps %d katas %d", len(gaps), len(katas))
	}
	k := katas[0]
	wantCons := []coach.KataConstraint{{Title: "No globals", Description: "No globals: keep state in a closure", MinLevel: 1},
		{Title: "Use a mutex", Description: "Use a mutex", MinLevel: 4}, {Title: "Handle timeouts", Description: "Handle timeouts", MinLevel: 7}}
	if diff := cmp.Diff(wantCons, k.Constraints); diff != "" || !strings.Contains(k.InstructorNotes, "two refreshes share one request") {
		t.Errorf("kata constraints (-want +got):\n%s\nnotes %q", diff, k.InstructorNotes)
	}
	if gap := gapByID(gaps, k.KnowledgeGapID); gap.Topic != "OAuth token refresh" {
		t.Errorf("kata attached to gap %+v", gap)
	}
	assessments, _ := db.DreyfusAssessments(ctx)
	if len(assessments) != 2 {
		t.Fatalf("assessments = %+v", assessments)
	}
	for _, a := range assessments {
		if a.SkillArea == "React state management" && (a.ID != existing.ID || a.Stage != coach.Competent || a.Confidence != 0.7 || !a.AssessedAt.After(existing.AssessedAt.Add(-1))) {
			t.Errorf("upserted = %+v (was %+v)", a, existing)
		}
	}
	row, _ := db.Session(ctx, sid)
	if row.Status != coach.SessionCompleted {
		t.Errorf("session status = %s", row.Status)
	}
	if acts := actionsOf(t, db, sid, coach.ActionSessionEnd, 1); len(acts) != 1 || dataOf(t, acts[0])["transcriptTruncated"] != true {
		t.Errorf("session_end = %v", acts)
	}

}

// checkRecall: a new session's pipeline recalls the stored memories (9.1 with memories, 9.11).
func checkRecall(t *testing.T, fake *claude, db *store.Store, editor *wsClient, cs *mcp.ClientSession, sid string) {
	sid2 := startSession(t, editor, "Token refresh storms")
	fake.Enqueue(
		llmtest.JSON(memoryfilter.Response{
			RelevantMemories: []memoryfilter.RelevantMemory{{Content: "Fixed an OAuth token refresh race by serialising refreshes behind a mutex",
				Relevance: "direct", Connection: "same refresh race", UseInCoaching: "remind them of the mutex"}},
			Discarded: []memoryfilter.Discarded{{Content: "Struggled with stale closures in React state updates", Reason: "unrelated"}},
		}),
		llmtest.JSON(threePhases(strp("Similar to the OAuth race you fixed last session"))),
	)
	var out2 mcpapi.PipelineOut
	if msg := callTool(t, cs, "paige_run_coaching_pipeline", map[string]any{"planText": "serialise token refresh",
		"issueSummary": "OAuth token refresh storms"}, &out2); msg != "" {
		t.Fatal(msg)
	}
	reqs := fake.Requests()[4:]
	if len(reqs) != 2 || reqs[0].Model != config.DefaultModelHaiku || reqs[0].System != memoryfilter.SystemPrompt {
		t.Fatalf("second pipeline requests = %d", len(reqs))
	}
	checkStructured(t, reqs[0], "relevant_memories", "discarded")
	filterUser := userJSON(t, reqs[0])
	if cands := filterUser["candidate_memories"].([]any); len(cands) != 2 ||
		!strings.Contains(reqs[0].LastUserText(), "mutex") || !strings.Contains(reqs[0].LastUserText(), `"session_id":"`+sid+`"`) {
		t.Errorf("filter candidates = %v", cands)
	}
	coachUser := userJSON(t, reqs[1])
	mems := coachUser["relevant_memories"].([]any)
	if len(mems) != 1 || mems[0].(map[string]any)["use_in_coaching"] != "remind them of the mutex" || coachUser["dreyfus_stage"] != "novice" {
		t.Errorf("coach memories = %v, stage %v", mems, coachUser["dreyfus_stage"])
	}
	if out2.MemoryConnection == nil || *out2.MemoryConnection != "Similar to the OAuth race you fixed last session" {
		t.Errorf("memoryConnection = %v", out2.MemoryConnection)
	}
	if calls := apiCalls(t, db, memoryfilter.CallType); len(calls) != 1 || calls[0].SessionID != sid2 {
		t.Errorf("api_call_log memory filter = %+v", calls)
	}
}

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
