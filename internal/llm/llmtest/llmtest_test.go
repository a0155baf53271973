package llmtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func newClient(tb testing.TB, s *llmtest.Server, retries int) anthropic.Client {
	tb.Helper()
	return anthropic.NewClient(
		option.WithAPIKey("test-key"),
		option.WithBaseURL(s.URL()),
		option.WithMaxRetries(retries),
	)
}

func params(user string) anthropic.MessageNewParams {
	return anthropic.MessageNewParams{
		Model:     "claude-test-1",
		MaxTokens: 512,
		System:    []anthropic.TextBlockParam{{Text: "You are a test."}},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(user))},
	}
}

func TestTextReplyAndRecordedRequest(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Enqueue(llmtest.Text("hello there").WithUsage(12, 3))

	p := params("say hello")
	p.Tools = []anthropic.ToolUnionParam{{OfWebSearchTool20250305: &anthropic.WebSearchTool20250305Param{MaxUses: anthropic.Int(3)}}}
	p.OutputConfig = anthropic.OutputConfigParam{Format: anthropic.JSONOutputFormatParam{
		Schema: map[string]any{"type": "object", "properties": map[string]any{}},
	}}
	msg, err := c.Messages.New(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := msg.Content[0].Text, "hello there"; got != want {
		t.Errorf("text: got %q, want %q", got, want)
	}
	if got, want := string(msg.StopReason), "end_turn"; got != want {
		t.Errorf("stop_reason: got %q, want %q", got, want)
	}
	if msg.Usage.InputTokens != 12 || msg.Usage.OutputTokens != 3 {
		t.Errorf("usage: got %d/%d, want 12/3", msg.Usage.InputTokens, msg.Usage.OutputTokens)
	}
	if got, want := string(msg.Model), "claude-test-1"; got != want {
		t.Errorf("model echoed: got %q, want %q", got, want)
	}

	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests: got %d, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Model != "claude-test-1" || r.MaxTokens != 512 || r.System != "You are a test." || r.Stream {
		t.Errorf("request: got model=%q max=%d system=%q stream=%v", r.Model, r.MaxTokens, r.System, r.Stream)
	}
	if got, want := r.LastUserText(), "say hello"; got != want {
		t.Errorf("LastUserText: got %q, want %q", got, want)
	}
	wantTools := []map[string]any{{"type": "web_search_20250305", "name": "web_search", "max_uses": float64(3)}}
	if diff := cmp.Diff(wantTools, r.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if got, want := r.OutputFormat["type"], "json_schema"; got != want {
		t.Errorf("output format type: got %v, want %v", got, want)
	}
	if r.Schema()["type"] != "object" {
		t.Errorf("schema: got %v", r.Schema())
	}
	if r.Header.Get("X-Api-Key") != "test-key" {
		t.Errorf("api key header: got %q", r.Header.Get("X-Api-Key"))
	}
	if !json.Valid(r.Raw) || r.Body["model"] != "claude-test-1" {
		t.Errorf("raw/body not recorded: %s", r.Raw)
	}
}

func TestToolUseReply(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Enqueue(llmtest.ToolUse("toolu_1", "present_round", map[string]any{"round": 1}))
	msg, err := c.Messages.New(context.Background(), params("go"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(msg.StopReason), "tool_use"; got != want {
		t.Errorf("stop_reason: got %q, want %q", got, want)
	}
	b := msg.Content[0]
	if b.Type != "tool_use" || b.ID != "toolu_1" || b.Name != "present_round" || string(b.Input) != `{"round":1}` {
		t.Errorf("block: got type=%s id=%s name=%s input=%s", b.Type, b.ID, b.Name, b.Input)
	}
}

func webSearchReply() llmtest.Response {
	return llmtest.Message("end_turn",
		llmtest.ServerToolUseBlock("srvtoolu_1", "web_search", map[string]any{"query": "go generics"}),
		llmtest.WebSearchResultBlock("srvtoolu_1",
			llmtest.WebResult{URL: "https://go.dev/doc/tutorial/generics", Title: "Tutorial: Generics", PageAge: "2024-01-01"}),
		llmtest.TextBlock(`{"ok":true}`),
	)
}

func TestServerToolUseAndWebSearchResult(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Enqueue(webSearchReply())
	msg, err := c.Messages.New(context.Background(), params("find"))
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, b := range msg.Content {
		types = append(types, b.Type)
	}
	if diff := cmp.Diff([]string{"server_tool_use", "web_search_tool_result", "text"}, types); diff != "" {
		t.Fatalf("block types (-want +got):\n%s", diff)
	}
	if got := msg.Content[0].AsServerToolUse(); got.Name != "web_search" || got.ID != "srvtoolu_1" {
		t.Errorf("server_tool_use: got %+v", got)
	}
	res := msg.Content[1].AsWebSearchToolResult()
	if res.ToolUseID != "srvtoolu_1" {
		t.Errorf("tool_use_id: got %q", res.ToolUseID)
	}
	results := res.Content.AsWebSearchResultBlockArray()
	if len(results) != 1 || results[0].URL != "https://go.dev/doc/tutorial/generics" || results[0].Title != "Tutorial: Generics" {
		t.Errorf("results: got %+v", results)
	}
	if got := msg.Usage.ServerToolUse.WebSearchRequests; got != 1 {
		t.Errorf("web_search_requests: got %d, want 1", got)
	}
}

func TestStopReasons(t *testing.T) {
	for _, stop := range []string{"end_turn", "max_tokens", "refusal", "pause_turn", "stop_sequence", "tool_use"} {
		t.Run(stop, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c := newClient(t, s, 0)
			s.Enqueue(llmtest.Text("partial").WithStop(stop))
			msg, err := c.Messages.New(context.Background(), params("x"))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(msg.StopReason); got != stop {
				t.Errorf("stop_reason: got %q, want %q", got, stop)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name    string
		resp    llmtest.Response
		status  int
		errType string
	}{
		{"rate limited", llmtest.Error(429, "rate_limit_error", "slow down").WithRetryAfter(7), 429, "rate_limit_error"},
		{"server error", llmtest.Error(500, "api_error", "boom"), 500, "api_error"},
		{"overloaded", llmtest.Error(529, "overloaded_error", "Overloaded"), 529, "overloaded_error"},
		{"bad key", llmtest.Error(401, "authentication_error", "invalid x-api-key"), 401, "authentication_error"},
		{"bad request", llmtest.Error(400, "invalid_request_error", "nope"), 400, "invalid_request_error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c := newClient(t, s, 0)
			s.Enqueue(tt.resp)
			_, err := c.Messages.New(context.Background(), params("x"))
			var apiErr *anthropic.Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("error: got %v, want *anthropic.Error", err)
			}
			if apiErr.StatusCode != tt.status || string(apiErr.Type()) != tt.errType {
				t.Errorf("got status %d type %q, want %d %q", apiErr.StatusCode, apiErr.Type(), tt.status, tt.errType)
			}
			if tt.status == 429 {
				if got := apiErr.Response.Header.Get("retry-after"); got != "7" {
					t.Errorf("retry-after: got %q, want 7", got)
				}
			}
		})
	}
}

func TestSDKRetriesRateLimitThenSucceeds(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 1)
	s.Enqueue(llmtest.Error(429, "rate_limit_error", "slow down").WithRetryAfter(0), llmtest.Text("ok"))
	msg, err := c.Messages.New(context.Background(), params("x"))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Content[0].Text != "ok" {
		t.Errorf("text: got %q, want ok", msg.Content[0].Text)
	}
	if got := len(s.Requests()); got != 2 {
		t.Errorf("requests: got %d, want 2", got)
	}
}

func TestNoScriptedResponse(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	_, err := c.Messages.New(context.Background(), params("unscripted"))
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || !strings.Contains(err.Error(), "llmtest: no scripted response") {
		t.Fatalf("got %v, want 500 no scripted response", err)
	}
	if got := s.Requests(); len(got) != 1 || got[0].LastUserText() != "unscripted" {
		t.Errorf("unscripted request not recorded: %+v", got)
	}
}

func TestHandleAnswersWhenQueueEmpty(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Enqueue(llmtest.Text("queued"))
	s.Handle(func(r llmtest.Request) llmtest.Response { return llmtest.Text("echo: " + r.LastUserText()) })
	var got []string
	for _, in := range []string{"a", "b"} {
		msg, err := c.Messages.New(context.Background(), params(in))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, msg.Content[0].Text)
	}
	if diff := cmp.Diff([]string{"queued", "echo: b"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWaitRequestsConcurrent(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Handle(func(llmtest.Request) llmtest.Response { return llmtest.Text("ok") })
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Messages.New(context.Background(), params("x"))
		}()
	}
	if got := s.WaitRequests(t, 5, 5*time.Second); len(got) < 5 {
		t.Errorf("WaitRequests: got %d, want 5", len(got))
	}
	wg.Wait()
}

func TestDelayHonoursCancellation(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	s.Enqueue(llmtest.Text("late").WithDelay(time.Minute))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.Messages.New(ctx, params("x"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want context.DeadlineExceeded", err)
	}
}

func TestCountTokens(t *testing.T) {
	s := llmtest.NewServer(t)
	c := newClient(t, s, 0)
	n, err := c.Messages.CountTokens(context.Background(), anthropic.MessageCountTokensParams{
		Model:    "claude-test-1",
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(strings.Repeat("word ", 100)))},
	})
	if err != nil {
		t.Fatal(err)
	}
	if n.InputTokens < 100 {
		t.Errorf("input_tokens: got %d, want a rough count ≥ 100", n.InputTokens)
	}
}

func TestInvalidRequestRejectedWithoutConsumingScript(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Enqueue(llmtest.Text("kept"))
	res, err := http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("status: got %d, want 400", res.StatusCode)
	}
	c := newClient(t, s, 0)
	msg, err := c.Messages.New(context.Background(), params("x"))
	if err != nil || msg.Content[0].Text != "kept" {
		t.Errorf("got %v %v, want the scripted reply", msg, err)
	}
}

func TestRawRequestShapes(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Enqueue(llmtest.Text("ok"))
	body := `{"model":"m","max_tokens":10,"system":"plain system","stream":false,
		"messages":[{"role":"user","content":"plain user"},{"role":"assistant","content":[{"type":"text","text":"a"}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"r"},{"type":"text","text":"last"}]}]}`
	res, err := http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	r := s.Requests()[0]
	if r.System != "plain system" || r.LastUserText() != "last" || len(r.Messages) != 3 || r.Messages[0].Text() != "plain user" {
		t.Errorf("decoded: system=%q last=%q messages=%+v", r.System, r.LastUserText(), r.Messages)
	}
	if got := r.Messages[2].Content[0]["type"]; got != "tool_result" {
		t.Errorf("tool_result block: got %v", got)
	}

	res, err = http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(`{not json`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 || len(s.Requests()) != 2 || string(s.Requests()[1].Raw) != "{not json" {
		t.Errorf("invalid JSON: got status %d, %d requests", res.StatusCode, len(s.Requests()))
	}
	res, err = http.Get(s.URL() + "/v1/files")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Errorf("unknown route: got %d, want 404", res.StatusCode)
	}
}
