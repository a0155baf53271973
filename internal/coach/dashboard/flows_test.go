package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/learningmaterials"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/embedding"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
)

// assessedIssue is a valid issue_assessment reply entry.
func assessedIssue(n int) map[string]any {
	return map[string]any{
		"number": n, "title": "model title", "summary": "Paige says hi", "suitability": "good_fit", "suitability_reason": "fits",
		"estimated_difficulty": "beginner", "relevant_skills": []any{"sql"}, "priority_score": 0.8,
		"priority_factors":       map[string]any{"user_tagged": true, "similar_to_recent_work": false, "addresses_knowledge_gap": true, "team_urgency": "high"},
		"learning_opportunities": []any{"indexes"},
	}
}

func materialsReply() map[string]any {
	return map[string]any{"recommendations": []any{map[string]any{
		"knowledge_gap": "SQL indexes", "study_order": "docs first", "practice_connection": "Index kata",
		"resources": []any{map[string]any{"type": "documentation", "title": "SQLite indexes", "url": "https://sqlite.org/lang_createindex.html",
			"description": "d", "relevance": "direct", "estimated_time": "20 min"}},
	}}}
}

// routed answers by call type: the issue assessment or the materials research.
func routed(issues, materials llmtest.Response) func(llmtest.Request) llmtest.Response {
	return func(r llmtest.Request) llmtest.Response {
		if r.System == issueassessment.SystemPrompt {
			return issues
		}
		return materials
	}
}

// seedLearning stores an active session, a Dreyfus assessment, gaps and a kata.
func seedLearning(t testing.TB, s *server) coach.Session {
	t.Helper()
	ctx := context.Background()
	sess := must[coach.Session](t)(s.sess.Start(ctx, session.StartInput{IssueTitle: "warm-up"}))
	must[coach.DreyfusAssessment](t)(s.st.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "databases", Stage: coach.AdvancedBeginner, Confidence: 0.6}))
	gap := must[coach.KnowledgeGap](t)(s.st.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: sess.ID, Topic: "SQL indexes",
		Severity: coach.SeverityHigh, Frequency: 3, RelatedConcepts: []string{"b-tree"}}))
	must[coach.KnowledgeGap](t)(s.st.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: sess.ID, Topic: "CSS grid", Severity: coach.SeverityLow}))
	addressed := must[coach.KnowledgeGap](t)(s.st.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: sess.ID, Topic: "git", Severity: coach.SeverityHigh}))
	if err := s.st.SetGapAddressed(ctx, addressed.ID, true); err != nil {
		t.Fatal(err)
	}
	must[coach.KataSpec](t)(s.st.CreateKata(ctx, coach.KataSpec{KnowledgeGapID: gap.ID, Title: "Index kata"}))
	return sess
}

func openMemory(t testing.TB) memory.Store {
	t.Helper()
	m, err := memory.OpenEmbedded(context.Background(), filepath.Join(t.TempDir(), "memory.db"), embedding.NewLexical(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// Scenarios 12.1–12.3, 12.11, SC-082..SC-087: state at once, then issues and
// materials from two calls that run in parallel, then dashboard_loaded.
func TestDashboardLoad(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 2500) // multi-byte: cut on a rune boundary
	gh, _ := fakeGH(t, ghPrints(fmt.Sprintf(`[{"number":12,"title":"Add an index to slow order query","body":%q,"labels":[{"name":"perf"}],
		"assignees":[],"comments":[]},{"number":15,"title":"Dark mode","body":"css","labels":[],"assignees":[],"comments":[]}]`, long)))
	mem := openMemory(t)
	if _, err := mem.AddMemories(context.Background(), "old-session", "/p", []memory.Memory{
		{Content: "User struggled with a slow order query until adding an index", Tags: []string{"sql"}}}); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, serverOpts{gh: gh, memory: mem})
	sess := seedLearning(t, s)

	inParallel(s, routed(llmtest.JSON(map[string]any{"issues": []any{assessedIssue(12), assessedIssue(99)}}),
		llmtest.Message("end_turn",
			llmtest.ServerToolUseBlock("srvtoolu_1", "web_search", map[string]any{"query": "sqlite index tutorial"}),
			llmtest.WebSearchResultBlock("srvtoolu_1", llmtest.WebResult{URL: "https://sqlite.org/lang_createindex.html", Title: "SQLite"}),
			llmtest.TextBlock(mustJSON(t, materialsReply())))))

	c := s.dial(t)
	c.send(typeDashboardRequest, map[string]any{"statsPeriod": "7d"})
	var state DashboardState
	c.expect(typeDashboardState, &state)
	if state.Stats.Period != "7d" || len(state.Dreyfus) != 1 || len(state.InProgressSessions) != 1 || len(state.Katas) != 1 ||
		state.Stats.KnowledgeGapsIdentified != 3 || state.Stats.KnowledgeGapsAddressed != 1 {
		t.Errorf("dashboard:state: got %+v", state)
	}
	got := c.collect(2)
	issues := decode[DashboardIssues](t, got[typeDashboardIssues])
	wantIssues := DashboardIssues{Issues: []IssueSuggestion{{Number: 12, Title: "Add an index to slow order query",
		Summary: "Paige says hi", Suitability: "good_fit", SuitabilityReason: "fits", EstimatedDifficulty: "beginner",
		RelevantSkills: []string{"sql"}, PriorityScore: 0.8, PriorityFactors: PriorityFactors{UserTagged: true,
			AddressesKnowledgeGap: true, TeamUrgency: "high"}, LearningOpportunities: []string{"indexes"}}}}
	if diff := cmp.Diff(wantIssues, issues); diff != "" {
		t.Errorf("dashboard:issues (-want +got):\n%s", diff)
	}
	mats := decode[DashboardMaterials](t, got[typeDashboardMaterials])
	wantMats := DashboardMaterials{Recommendations: []Recommendation{{KnowledgeGap: "SQL indexes", StudyOrder: "docs first",
		PracticeConnection: strp("Index kata"), Resources: []Resource{{Type: "documentation", Title: "SQLite indexes",
			URL: "https://sqlite.org/lang_createindex.html", Description: "d", Relevance: "direct", EstimatedTime: "20 min"}}}}}
	if diff := cmp.Diff(wantMats, mats); diff != "" {
		t.Errorf("dashboard:materials (-want +got):\n%s", diff)
	}

	checkRequests(t, s.llm.Requests(), sess.ID, long)
	waitLoaded(t, s, sess.ID, map[string]any{"statsPeriod": "7d", "issuesLoaded": true, "materialsLoaded": true})
}

// inParallel answers with answer only once two calls are in flight at the
// same time: calls made one after the other fail (scenario 12.11).
func inParallel(s *server, answer func(llmtest.Request) llmtest.Response) {
	var mu sync.Mutex
	arrived, both := 0, make(chan struct{})
	s.llm.Handle(func(r llmtest.Request) llmtest.Response {
		mu.Lock()
		if arrived++; arrived == 2 {
			close(both)
		}
		mu.Unlock()
		select {
		case <-both:
		case <-time.After(5 * time.Second):
			return llmtest.Error(400, "invalid_request_error", "calls ran sequentially")
		}
		return answer(r)
	})
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkRequests asserts what the SDK sent for the two dashboard calls.
func checkRequests(t *testing.T, reqs []llmtest.Request, sessionID, longBody string) {
	t.Helper()
	if len(reqs) != 2 {
		t.Fatalf("model calls: got %d, want 2", len(reqs))
	}
	for _, r := range reqs {
		if r.Model != config.DefaultModelSonnet || r.Schema() == nil || r.MaxTokens != 4096 {
			t.Errorf("request: model %q, schema %v, max_tokens %d", r.Model, r.Schema() != nil, r.MaxTokens)
		}
		var user map[string]any
		if err := json.Unmarshal([]byte(r.LastUserText()), &user); err != nil {
			t.Fatal(err)
		}
		switch r.System {
		case issueassessment.SystemPrompt:
			if len(r.Tools) != 0 {
				t.Errorf("issue assessment sent tools %v", r.Tools)
			}
			body := user["github_issues"].([]any)[0].(map[string]any)["body"].(string)
			if !strings.HasPrefix(body, strings.Repeat("é", 1000)) || strings.Contains(body, longBody[:2002]) {
				t.Errorf("issue body not cut to 2000 chars (EC-89): %d bytes", len(body))
			}
			mems := user["related_memories"].([]any)
			if len(mems) == 0 || !strings.Contains(mems[0].(map[string]any)["content"].(string), "slow order query") {
				t.Errorf("related_memories: got %v", mems)
			}
			gaps := user["knowledge_gaps"].([]any)
			if diff := cmp.Diff([]any{map[string]any{"topic": "SQL indexes", "severity": "high"},
				map[string]any{"topic": "CSS grid", "severity": "low"}}, gaps); diff != "" {
				t.Errorf("knowledge_gaps (-want +got):\n%s", diff)
			}
			if st := user["user_dreyfus_stages"].([]any); len(st) != 1 {
				t.Errorf("user_dreyfus_stages: got %v", st)
			}
		case learningmaterials.System("advanced_beginner"):
			want := []map[string]any{{"type": "web_search_20250305", "name": "web_search", "max_uses": float64(learningmaterials.MaxSearches)}}
			if diff := cmp.Diff(want, r.Tools); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			wantUser := map[string]any{
				"knowledge_gaps": []any{
					map[string]any{"topic": "SQL indexes", "severity": "high", "relatedConcepts": []any{"b-tree"}, "frequency": 3.0},
					map[string]any{"topic": "CSS grid", "severity": "low", "relatedConcepts": []any{}, "frequency": 1.0},
				},
				"tech_stack": "unknown", "available_katas": []any{"Index kata"},
			}
			if diff := cmp.Diff(wantUser, user); diff != "" {
				t.Errorf("materials user message (-want +got):\n%s", diff)
			}
		default:
			t.Errorf("unexpected system prompt %q", r.System[:60])
		}
	}
}

// waitLoaded waits for the dashboard_loaded row and checks its data.
func waitLoaded(t *testing.T, s *server, sessionID string, want map[string]any) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		list, err := s.st.RecentActions(context.Background(), store.ActionQuery{SessionID: sessionID,
			Types: []coach.ActionType{coach.ActionDashboardLoaded}})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == 1 {
			var got map[string]any
			json.Unmarshal(list[0].Data, &got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("dashboard_loaded (-want +got):\n%s", diff)
			}
			return
		}
		if len(list) > 1 || time.Now().After(deadline) {
			t.Fatalf("dashboard_loaded rows: got %d, want 1", len(list))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Scenario 12.9, EC-84, EC-85, SC-091: a fresh install gets zeros, an empty
// issue list and no materials; no model is called.
func TestDashboardEmpty(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOpts{})
	c := s.dial(t)
	c.send(typeDashboardRequest, map[string]any{})
	var state DashboardState
	c.expect(typeDashboardState, &state)
	if state.Stats != (DashboardStats{Period: "all"}) || len(state.Dreyfus)+len(state.InProgressSessions)+len(state.Katas) != 0 {
		t.Errorf("dashboard:state: got %+v", state)
	}
	var issues DashboardIssues
	c.expect(typeDashboardIssues, &issues)
	if issues.Issues == nil || len(issues.Issues) != 0 {
		t.Errorf("dashboard:issues: got %+v, want []", issues)
	}
	c.quiet(300 * time.Millisecond)
	if n := len(s.llm.Requests()); n != 0 {
		t.Errorf("model calls: got %d, want 0", n)
	}
}

// dashboard_loaded is logged even before a session starts (issue 13): the
// row is stored with no session.
func TestDashboardLoadedWithoutSession(t *testing.T) {
	s := newServer(t, serverOpts{})
	c := s.dial(t)
	c.send(typeDashboardRequest, map[string]any{"statsPeriod": "30d"})
	c.expect(typeDashboardState, nil)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		var data string
		err := s.st.DB().QueryRow(`SELECT count(*), coalesce(max(data), '') FROM action_log
			WHERE action_type = 'dashboard_loaded' AND session_id IS NULL`).Scan(&n, &data)
		if err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			if want := `{"issuesLoaded":true,"materialsLoaded":false,"statsPeriod":"30d"}`; data != want {
				t.Errorf("dashboard_loaded data = %s, want %s", data, want)
			}
			return
		}
		if n > 1 || time.Now().After(deadline) {
			t.Fatalf("sessionless dashboard_loaded rows: got %d, want 1", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Scenarios 12.5–12.7, EC-82, SC-090: gh and model failures reach the
// editor as readable errors; a gh failure costs no model call.
func TestDashboardErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		gh            string // fake gh body; "" means gh is not installed
		script        []llmtest.Response
		wantIssues    string // "" means dashboard:issues is expected
		wantMaterials string
		wantCalls     int
	}{
		{name: "gh missing, materials ok", script: []llmtest.Response{llmtest.JSON(materialsReply())},
			wantIssues: "GitHub CLI not found", wantCalls: 1},
		{name: "no remote", gh: "echo 'no git remotes found' >&2; exit 1", script: []llmtest.Response{llmtest.JSON(materialsReply())},
			wantIssues: "No GitHub remote found", wantCalls: 1},
		{name: "both calls fail after every retry", gh: ghPrints(`[{"number":1,"title":"t","body":"","labels":[],"assignees":[],"comments":[]}]`),
			script:        []llmtest.Response{llmtest.Error(500, "api_error", "x")},
			wantIssues:    "Issue assessment failed: Claude is unavailable right now; try again later",
			wantMaterials: "Learning materials failed: Claude is unavailable right now; try again later", wantCalls: 2 * llm.DefaultMaxAttempts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gh := &GH{Dir: t.TempDir(), LookPath: LookPathIn(t.TempDir())}
			if tt.gh != "" {
				gh, _ = fakeGH(t, tt.gh)
			}
			s := newServer(t, serverOpts{gh: gh})
			sess := seedLearning(t, s)
			script := tt.script
			s.llm.Handle(func(llmtest.Request) llmtest.Response { return script[0] })
			c := s.dial(t)
			c.send(typeDashboardRequest, nil)
			c.expect(typeDashboardState, nil)
			got := c.collect(2)
			if e := decode[errorText](t, got[typeDashboardIssuesError]); e.Error != tt.wantIssues {
				t.Errorf("dashboard:issues_error: got %q, want %q", e.Error, tt.wantIssues)
			}
			if tt.wantMaterials != "" {
				if e := decode[errorText](t, got[typeDashboardMaterialsError]); e.Error != tt.wantMaterials {
					t.Errorf("dashboard:materials_error: got %q, want %q", e.Error, tt.wantMaterials)
				}
			} else if _, ok := got[typeDashboardMaterials]; !ok {
				t.Errorf("dashboard:materials missing: got %v", keys(got))
			}
			if n := len(s.llm.Requests()); n != tt.wantCalls {
				t.Errorf("model calls: got %d, want %d", n, tt.wantCalls)
			}
			waitLoaded(t, s, sess.ID, map[string]any{"statsPeriod": "all", "issuesLoaded": false,
				"materialsLoaded": tt.wantMaterials == ""})
		})
	}
}

// Scenario 12.8, D82, SC-088: refresh reruns only the issue flow; a
// transient failure is retried once (D88); memory unavailable means no
// memories (scenario 12.4, SC-089).
func TestRefreshIssues(t *testing.T) {
	t.Parallel()
	gh, _ := fakeGH(t, ghPrints(`[{"number":4,"title":"Fix typo","body":"","labels":[],"assignees":[],"comments":[]}]`))
	s := newServer(t, serverOpts{gh: gh, memory: memory.Nop{}})
	s.llm.Enqueue(llmtest.Error(529, "overloaded_error", "busy"), llmtest.JSON(map[string]any{"issues": []any{assessedIssue(4)}}))
	c := s.dial(t)
	c.send(typeDashboardRefreshIssues, map[string]any{})
	var issues DashboardIssues
	c.expect(typeDashboardIssues, &issues)
	if len(issues.Issues) != 1 || issues.Issues[0].Title != "Fix typo" {
		t.Errorf("dashboard:issues: got %+v", issues)
	}
	reqs := s.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model calls: got %d, want 2 (one retry)", len(reqs))
	}
	var user map[string]any
	json.Unmarshal([]byte(reqs[1].LastUserText()), &user)
	if m := user["related_memories"].([]any); len(m) != 0 {
		t.Errorf("related_memories without memory: got %v", m)
	}
	c.quiet(300 * time.Millisecond) // no dashboard:state, no materials
}

// Shutdown: Close cancels a flow waiting on Claude and waits for it.
func TestCloseCancelsFlows(t *testing.T) {
	t.Parallel()
	gh, _ := fakeGH(t, ghPrints(`[{"number":1,"title":"t","body":"","labels":[],"assignees":[],"comments":[]}]`))
	s := newServer(t, serverOpts{gh: gh})
	s.llm.Handle(func(llmtest.Request) llmtest.Response {
		return llmtest.JSON(map[string]any{"issues": []any{}}).WithDelay(time.Minute)
	})
	c := s.dial(t)
	c.send(typeDashboardRefreshIssues, map[string]any{})
	s.llm.WaitRequests(t, 1, 5*time.Second)
	done := make(chan struct{})
	go func() { s.svc.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return while a flow waited on Claude")
	}
	var e errorText
	c.expect(typeDashboardIssuesError, &e)
	if e.Error != "Issue assessment failed: the server is shutting down" {
		t.Errorf("error: got %q", e.Error)
	}
}
