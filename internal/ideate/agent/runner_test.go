package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/ideate/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// fixture is a runner talking to llmtest through the real SDK, over a real
// SQLite store, with sleeps recorded instead of waited.
type fixture struct {
	fake   *llmtest.Server
	repo   *store.Store
	runner *Runner
	mu     sync.Mutex
	sleeps []time.Duration
	specs  string
}

func newFixture(t testing.TB, opts *Options) *fixture {
	t.Helper()
	f := &fixture{fake: llmtest.NewServer(t), specs: t.TempDir()}
	repo, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	f.repo = repo
	sdk := llm.New(llm.Options{APIKey: "test-key", BaseURL: f.fake.URL()}).SDK()
	client := NewClient(&sdk.Messages, &ClientOptions{
		Sleep: func(_ context.Context, d time.Duration) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.sleeps = append(f.sleeps, d)
			return nil
		},
		Jitter: func() float64 { return 1 },
	})
	var o Options
	if opts != nil {
		o = *opts
	}
	o.SpecDir = f.specs
	f.runner = NewRunner(client, repo, &o)
	return f
}

// session creates a session whose history holds the initial message.
func (f *fixture) session(t testing.TB) *core.Session {
	t.Helper()
	msgs, _, err := AppendUserText(nil, core.InitialMessage("How might we reduce churn?"))
	if err != nil {
		t.Fatal(err)
	}
	s := core.Session{ID: store.NewID(), Problem: "How might we reduce churn?", Status: core.StatusCreated, Messages: msgs}
	if err := f.repo.CreateSession(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func (f *fixture) run(ctx context.Context, s *core.Session) ([]core.Event, Outcome) {
	var evs []core.Event
	out := f.runner.Run(ctx, s, func(e core.Event) { evs = append(evs, e) })
	return evs, out
}

func types(evs []core.Event) []core.EventType {
	var out []core.EventType
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func last(evs []core.Event) core.DoneData { return evs[len(evs)-1].Data.(core.DoneData) }

func TestTextOnly(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(llmtest.Text("Hello.").WithUsage(10, 5))
	s := f.session(t)
	evs, out := f.run(context.Background(), s)
	want := []core.EventType{core.EventContextUsage, core.EventAgentText, core.EventDone}
	if diff := cmp.Diff(want, types(evs)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if evs[1].Data != "Hello." || last(evs) != (core.DoneData{}) || out.Paused || out.Errored {
		t.Errorf("got %+v %+v", evs, out)
	}
	req := f.fake.Requests()[0]
	if req.Model != "claude-opus-4-6" || req.MaxTokens != 16384 || req.System != SystemPrompt || len(req.Tools) != 18 {
		t.Errorf("request got model %s max %d tools %d", req.Model, req.MaxTokens, len(req.Tools))
	}
	ws := req.Tools[17]
	if ws["type"] != "web_search_20250305" || ws["name"] != "web_search" || ws["max_uses"] != 5.0 {
		t.Errorf("web search tool got %v", ws)
	}
	if req.Tools[0]["name"] != "decompose_problem" || req.Tools[0]["input_schema"].(map[string]any)["required"].([]any)[0] != "problem_statement" {
		t.Errorf("first tool got %v", req.Tools[0])
	}
}

func TestConfiguredModel(t *testing.T) {
	f := newFixture(t, &Options{Model: "claude-test-model"})
	f.fake.Enqueue(llmtest.Text("ok"))
	f.run(context.Background(), f.session(t))
	if got := f.fake.Requests()[0].Model; got != "claude-test-model" {
		t.Errorf("got %s", got)
	}
}

func TestFirstRoundPauses(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(ideatetest.FirstRound("R1")...)
	s := f.session(t)
	evs, out := f.run(context.Background(), s)
	if !out.Paused || out.Iterations != 4 || !last(evs).AwaitingInput {
		t.Fatalf("got %+v, last %+v", out, last(evs))
	}
	var premises []core.PremiseView
	for _, e := range evs {
		if e.Type == core.EventPremises {
			premises = e.Data.([]core.PremiseView)
		}
		if e.Type == core.EventToolError {
			t.Errorf("unexpected tool error %+v", e.Data)
		}
	}
	if len(premises) != 3 || premises[0].ID == "" || premises[0].Title != "R1 premise A" {
		t.Fatalf("premises got %+v", premises)
	}
	got, _ := f.repo.GetSession(context.Background(), s.ID)
	if got.Status != core.StatusActive || got.State.RoundNumber != 1 || got.State.Pending == nil || got.State.Awaiting != core.AwaitScores {
		t.Errorf("persisted session got %+v", got)
	}
	calls, _ := f.repo.ListToolCalls(context.Background(), s.ID)
	if len(calls) != 10 || calls[0].ToolName != "decompose_problem" || calls[9].ToolName != "present_round" || calls[9].Status != "awaiting_user_scores" {
		t.Errorf("tool calls got %d: %+v", len(calls), calls)
	}
	if Due(&got) {
		t.Error("paused session still needs the model")
	}
	// Running a paused session re-sends its prompt without calling the model.
	evs, out = f.run(context.Background(), &got)
	if diff := cmp.Diff([]core.EventType{core.EventContextUsage, core.EventPremises, core.EventDone}, types(evs)); diff != "" || !out.Paused {
		t.Errorf("re-run (-want +got):\n%s", diff)
	}
	if n := len(f.fake.Requests()); n != 4 {
		t.Errorf("re-run called the model: %d requests", n)
	}
	// The user's answer joins the tool results' user message.
	msgs, from, err := AppendUserText(got.Messages, "scores")
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]any
	json.Unmarshal(msgs, &raw)
	lastMsg := raw[len(raw)-1]["content"].([]any)
	if from != 8 {
		t.Errorf("changed from %d, want 8 (the tool results' message)", from)
	}
	if len(raw) != 9 || lastMsg[len(lastMsg)-1].(map[string]any)["text"] != "scores" || lastMsg[0].(map[string]any)["type"] != "tool_result" {
		t.Errorf("appended history got %d messages, last %v", len(raw), lastMsg)
	}
}

func TestToolErrorDoesNotEndLoop(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(
		llmtest.ToolUse("t1", "generate_premise", map[string]any{"title": "T", "body": "B", "premise_type": "initial"}),
		llmtest.ToolUse("t2", "summon_genie", map[string]any{}),
		llmtest.Text("Understood, calling the gates next time."),
	)
	s := f.session(t)
	evs, out := f.run(context.Background(), s)
	var codes []core.Code
	for _, e := range evs {
		if e.Type == core.EventToolError {
			codes = append(codes, e.Data.(core.ToolErrorData).ErrorCode)
		}
	}
	if diff := cmp.Diff([]core.Code{core.CodeGatesNotSatisfied, core.CodeUnknownTool}, codes); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if out.Errored || out.Iterations != 3 {
		t.Errorf("got %+v", out)
	}
	// The model saw the failure as an is_error tool result.
	res := f.fake.Requests()[1].Messages
	block := res[len(res)-1].Content[0]
	if block["type"] != "tool_result" || block["is_error"] != true {
		t.Errorf("tool result got %v", block)
	}
	calls, _ := f.repo.ListToolCalls(context.Background(), s.ID)
	if len(calls) != 2 || calls[0].ErrorCode != "GATES_NOT_SATISFIED" || calls[1].ErrorCode != "UNKNOWN_TOOL" {
		t.Errorf("tool calls got %+v", calls)
	}
}

func TestPauseTurnAndWebSearch(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(
		llmtest.Message("pause_turn",
			llmtest.ServerToolUseBlock("srv1", "web_search", map[string]any{"query": "churn 2026"}),
			llmtest.WebSearchResultBlock("srv1", llmtest.WebResult{URL: "https://a.example", Title: "A"}, llmtest.WebResult{URL: "https://b.example", Title: "B"})),
		llmtest.Text("Research done."),
	)
	s := f.session(t)
	evs, out := f.run(context.Background(), s)
	want := []core.EventType{core.EventContextUsage, core.EventToolCall, core.EventToolResult,
		core.EventContextUsage, core.EventAgentText, core.EventDone}
	if diff := cmp.Diff(want, types(evs)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if evs[1].Data.(core.ToolCallData).Tool != "web_search" || evs[2].Data != "Web search returned 2 result(s)" || out.Iterations != 2 {
		t.Errorf("got %+v", evs)
	}
	second := f.fake.Requests()[1].Messages
	if lastMsg := second[len(second)-1]; lastMsg.Role != "assistant" || lastMsg.Content[0]["type"] != "server_tool_use" {
		t.Errorf("continuation got %+v", lastMsg)
	}
	calls, _ := f.repo.ListToolCalls(context.Background(), s.ID)
	if len(calls) != 1 || calls[0].ToolName != "web_search" || calls[0].Status != "ok" || !strings.Contains(string(calls[0].Output), "2 result(s)") {
		t.Errorf("web search tool call got %+v", calls)
	}
	// The persisted history (with the web search blocks) decodes again and
	// re-encodes to the same JSON.
	got, _ := f.repo.GetSession(context.Background(), s.ID)
	h, err := loadHistory(got.Messages)
	if err != nil {
		t.Fatal(err)
	}
	var reencoded []json.RawMessage
	for _, p := range h.params {
		b, _ := json.Marshal(p)
		reencoded = append(reencoded, b)
	}
	if string(core.JoinMessages(reencoded)) != string(got.Messages) || len(h.params) != 3 {
		t.Errorf("history round trip:\n got %s\nwant %s", core.JoinMessages(reencoded), got.Messages)
	}
}

func TestTokenAccounting(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(
		llmtest.ToolUse("t1", "get_context_usage", map[string]any{}).WithUsage(100, 50),
		llmtest.Text("ok").WithUsage(200, 25),
	)
	s := f.session(t)
	evs, _ := f.run(context.Background(), s)
	var used []int64
	for _, e := range evs {
		if e.Type == core.EventContextUsage {
			used = append(used, e.Data.(core.ContextUsage).TokensUsed)
		}
	}
	if diff := cmp.Diff([]int64{150, 375}, used); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got, _ := f.repo.GetSession(context.Background(), s.ID)
	if got.TotalTokensUsed != 375 {
		t.Errorf("persisted tokens got %d, want 375", got.TotalTokensUsed)
	}
	calls, _ := f.repo.ListToolCalls(context.Background(), s.ID)
	var out map[string]any
	json.Unmarshal(calls[0].Output, &out)
	if out["tokens_used"] != 150.0 {
		t.Errorf("get_context_usage saw %v tokens, want 150", out["tokens_used"])
	}
}

func TestLoopLimit(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Handle(func(llmtest.Request) llmtest.Response {
		return llmtest.ToolUse("loop", "get_context_usage", map[string]any{})
	})
	evs, out := f.run(context.Background(), f.session(t))
	if out.Iterations != 50 || len(f.fake.Requests()) != 50 || !out.Errored {
		t.Fatalf("got %+v after %d requests", out, len(f.fake.Requests()))
	}
	errEv := evs[len(evs)-2].Data.(core.SSEError)
	if errEv.Code != core.CodeAgentLoopExceeded || errEv.Recoverable || !last(evs).Error {
		t.Errorf("got %+v", errEv)
	}
}

func TestFinalSpecEvents(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(ideatetest.FinalSpec("W", "# Spec"))
	s := f.session(t)
	s.State.Resolved = true
	evs, out := f.run(context.Background(), s)
	want := []core.EventType{core.EventContextUsage, core.EventAgentText, core.EventToolCall,
		core.EventFinalSpec, core.EventSpecFileReady, core.EventDone}
	if diff := cmp.Diff(want, types(evs)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if evs[3].Data != "# Spec" || evs[4].Data.(core.SpecFileData).DownloadURL != "/api/v1/sessions/"+s.ID+"/spec" || !out.Paused {
		t.Errorf("got %+v", evs)
	}
}

func TestOffline(t *testing.T) {
	f := newFixture(t, &Options{Offline: true})
	s := f.session(t)
	evs, out := f.run(context.Background(), s)
	if !out.Errored || len(f.fake.Requests()) != 0 || evs[0].Data.(core.SSEError).Code != core.CodeAnthropicAPI {
		t.Errorf("got %+v %+v", evs, out)
	}
	// A run that failed for want of a model is recorded as failed, so a
	// later start with a model does not spend on it unasked (issue 28).
	got, _ := f.repo.GetSession(context.Background(), s.ID)
	if got.State.Run != core.RunFailed || got.State.RunError == nil || got.State.RunError.APICode != "no_model" {
		t.Errorf("saved run state got %q %+v, want failed with no_model", got.State.Run, got.State.RunError)
	}
}

func TestCancel(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(llmtest.Text("slow").WithDelay(30 * time.Second))
	s := f.session(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		f.fake.WaitRequests(t, 1, 5*time.Second)
		cancel()
	}()
	start := time.Now()
	evs, out := f.run(ctx, s)
	if !out.Cancelled || !last(evs).Cancelled || time.Since(start) > 10*time.Second {
		t.Fatalf("got %+v %+v", out, evs)
	}
	got, _ := f.repo.GetSession(context.Background(), s.ID)
	if !Due(&got) {
		t.Error("cancelled session cannot resume: history does not end with a user message")
	}
	if got.State.Run != core.RunCancelled {
		t.Errorf("saved run state got %q, want cancelled", got.State.Run)
	}
}

func TestResumeFromPersistedHistory(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(ideatetest.Gates(), llmtest.Error(400, "invalid_request_error", "stop here"))
	s := f.session(t)
	if _, out := f.run(context.Background(), s); !out.Errored {
		t.Fatal("want the scripted failure")
	}
	// A new runner (as after a restart) continues from what was persisted.
	got, _ := f.repo.GetSession(context.Background(), s.ID)
	if !got.State.AllGatesSatisfied() || !Due(&got) {
		t.Fatalf("persisted state got %+v", got.State)
	}
	f.fake.Enqueue(ideatetest.Round("R1", false)...)
	evs, out := f.run(context.Background(), &got)
	if !out.Paused || out.Iterations != 3 {
		t.Fatalf("resume got %+v %v", out, types(evs))
	}
	reqs := f.fake.Requests()
	if n := len(reqs[len(reqs)-3].Messages); n != 3 {
		t.Errorf("resumed request has %d messages, want 3 (initial, gates, gate results)", n)
	}
}

// TestAPIErrorsInRun goes through the SDK the runner really uses (llm.New,
// retries off): a 529 is retried once by our client, a 400 ends the run.
func TestAPIErrorsInRun(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(llmtest.Error(529, "overloaded_error", "busy"), llmtest.Text("ok"))
	evs, out := f.run(context.Background(), f.session(t))
	if out.Errored || len(f.fake.Requests()) != 2 || len(f.sleeps) != 1 || f.sleeps[0] != time.Second {
		t.Fatalf("retryable: got %+v, %d requests, sleeps %v (%v)", out, len(f.fake.Requests()), f.sleeps, types(evs))
	}
	f.fake.Enqueue(llmtest.Error(400, "invalid_request_error", "bad request"))
	evs, out = f.run(context.Background(), f.session(t))
	errEv := evs[0].Data.(core.SSEError)
	if !out.Errored || len(f.fake.Requests()) != 3 || errEv.Code != core.CodeAnthropicAPI || errEv.Recoverable || !last(evs).Error {
		t.Errorf("fatal: got %+v %+v after %d requests", out, evs, len(f.fake.Requests()))
	}
}
