package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge/knowledgetest"
	"github.com/paige-dev/paige/internal/learn/learncontext"
	"github.com/paige-dev/paige/internal/learn/learndb/learndbtest"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// newService opens learn.db and a knowledge store holding one rule and one
// preference, with a core preprompt, and returns a service on model.
func newService(tb testing.TB, model Model) *Service {
	tb.Helper()
	ctx := context.Background()
	db := learndbtest.Open(tb)
	pp := &learncontext.Preprompts{DB: db}
	if _, err := pp.Add(ctx, learncontext.Preprompt{Name: "core", Type: learncontext.Core, Content: "You are Paige.", Active: true}); err != nil {
		tb.Fatal(err)
	}
	ks := knowledgetest.Open(tb)
	ks.Append(learn.Entry{Type: learn.Rule, Content: "Never push to main", Confidence: 1, Source: "t"},
		learn.Entry{Type: learn.Preference, Content: "User prefers pnpm", Confidence: 0.9, Source: "t"})
	return &Service{DB: db, Assembler: &learncontext.Assembler{Preprompts: pp, Knowledge: ks}, Model: model}
}

func claude(tb testing.TB, srv *llmtest.Server) *Claude {
	tb.Helper()
	return &Claude{Client: llm.New(llm.Options{APIKey: "k", BaseURL: srv.URL(), Retry: llm.RetryPolicy{BaseDelay: time.Millisecond}})}
}

func TestSendWithClaude(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("Use pnpm install.").WithUsage(120, 7), llmtest.Text("You're welcome.").WithUsage(140, 4))
	s := newService(t, claude(t, srv))
	ctx := context.Background()
	ss, err := s.CreateSession(ctx, "")
	if err != nil || ss.Name != "New chat" {
		t.Fatalf("session %+v, %v", ss, err)
	}
	m, err := s.Send(ctx, ss.ID, "How do I install deps?")
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "Use pnpm install." || m.InputTokens != 120 || m.OutputTokens != 7 || m.TokenCount != 127 || m.Model == "" {
		t.Errorf("reply: %+v", m)
	}
	req := srv.Requests()[0]
	for _, want := range []string{"## CONSTRAINTS\n- Never push to main", "## IDENTITY\nYou are Paige.", "- User prefers pnpm"} {
		if !strings.Contains(req.System, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, req.System)
		}
	}
	if _, err := s.Send(ctx, ss.ID, "thanks"); err != nil {
		t.Fatal(err)
	}
	if got := len(srv.Requests()[1].Messages); got != 3 {
		t.Errorf("second request carries %d messages, want the 3 of the history", got)
	}
	msgs, _ := s.Messages(ctx, ss.ID)
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role+":"+m.Content)
	}
	if got := strings.Join(roles, "|"); got != "user:How do I install deps?|assistant:Use pnpm install.|user:thanks|assistant:You're welcome." {
		t.Errorf("history: %s", got)
	}
}

func TestStreamWithClaude(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("Streaming works fine.").WithUsage(50, 5))
	s := newService(t, claude(t, srv))
	ctx := context.Background()
	ss, _ := s.CreateSession(ctx, "stream")
	var deltas []string
	m, err := s.Stream(ctx, ss.ID, "stream please", func(d string) error { deltas = append(deltas, d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !srv.Requests()[0].Stream {
		t.Error("request was not a streaming request")
	}
	if strings.Join(deltas, "") != "Streaming works fine." || m.Content != "Streaming works fine." || m.TokenCount != 55 {
		t.Errorf("deltas %q, message %+v", deltas, m)
	}
}

func TestChatErrors(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Error(500, "api_error", "boom"))
	s := newService(t, claude(t, srv))
	ctx := context.Background()
	if _, err := s.Send(ctx, "nope", "hi"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown session: got %v", err)
	}
	ss, _ := s.CreateSession(ctx, "e")
	if _, err := s.Send(ctx, ss.ID, "   "); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: got %v", err)
	}
	if _, err := s.Send(ctx, ss.ID, "hello"); err == nil {
		t.Error("API error: got nil")
	}
	msgs, _ := s.Messages(ctx, ss.ID)
	if len(msgs) != 1 || msgs[0].Role != "user" {
		t.Errorf("after a failed reply: %+v, want the user message kept", msgs)
	}
	off := newService(t, &Claude{Client: llm.New(llm.Options{})})
	ss, _ = off.CreateSession(ctx, "o")
	if _, err := off.Send(ctx, ss.ID, "hi"); !errors.Is(err, llm.ErrNoModel) {
		t.Errorf("offline: got %v, want ErrNoModel", err)
	}
}

// fakeOllamaChat answers /api/chat with "Hello from llama." whole or as
// three NDJSON chunks.
func fakeOllamaChat(tb testing.TB, seen *[]extract.OllamaChatRequest) string {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req extract.OllamaChatRequest
		json.NewDecoder(r.Body).Decode(&req)
		*seen = append(*seen, req)
		if !req.Stream {
			json.NewEncoder(w).Encode(extract.OllamaChatResponse{Model: req.Model, Done: true,
				Message: extract.OllamaMessage{Role: "assistant", Content: "Hello from llama."}, PromptEvalCount: 30, EvalCount: 4})
			return
		}
		for i, part := range []string{"Hello ", "from ", "llama."} {
			fmt.Fprintf(w, `{"model":%q,"message":{"role":"assistant","content":%q},"done":false}`+"\n", req.Model, part)
			if i == 1 {
				w.(http.Flusher).Flush()
			}
		}
		fmt.Fprintf(w, `{"model":%q,"message":{"role":"assistant","content":""},"done":true,"prompt_eval_count":30,"eval_count":4}`+"\n", req.Model)
	}))
	tb.Cleanup(srv.Close)
	return srv.URL
}

func TestOllamaChat(t *testing.T) {
	var seen []extract.OllamaChatRequest
	url := fakeOllamaChat(t, &seen)
	s := newService(t, &Ollama{URL: url, Model: "llama3.2"})
	ctx := context.Background()
	ss, _ := s.CreateSession(ctx, "local")
	m, err := s.Send(ctx, ss.ID, "hi there")
	if err != nil || m.Content != "Hello from llama." || m.TokenCount != 34 || m.Model != "llama3.2" {
		t.Fatalf("send: %+v, %v", m, err)
	}
	if seen[0].Messages[0].Role != "system" || !strings.Contains(seen[0].Messages[0].Content, "Never push to main") {
		t.Errorf("system message: %+v", seen[0].Messages[0])
	}
	var deltas []string
	m, err = s.Stream(ctx, ss.ID, "again", func(d string) error { deltas = append(deltas, d); return nil })
	if err != nil || len(deltas) != 3 || m.Content != "Hello from llama." || m.OutputTokens != 4 {
		t.Errorf("stream: %q %+v %v", deltas, m, err)
	}
	if !seen[1].Stream || len(seen[1].Messages) != 4 {
		t.Errorf("stream request: stream=%v, %d messages", seen[1].Stream, len(seen[1].Messages))
	}
}

func TestNewModel(t *testing.T) {
	c := llm.New(llm.Options{APIKey: "k"})
	for spec, want := range map[string]string{"": "claude:claude-sonnet-4-5-20250929", "haiku": "claude:claude-haiku-4-5-20251001",
		"claude:x-1": "claude:x-1", "ollama:qwen": "ollama:qwen"} {
		m, err := NewModel(spec, c, "")
		if err != nil || m.Name() != want {
			t.Errorf("NewModel(%q): %v, %v; want %s", spec, m, err, want)
		}
	}
	for _, bad := range []string{"gpt", "ollama:", "claude:"} {
		if _, err := NewModel(bad, c, ""); err == nil {
			t.Errorf("NewModel(%q): nil error", bad)
		}
	}
}

func TestRecent(t *testing.T) {
	var h []Turn
	for i := range 10 {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		h = append(h, Turn{Role: role, Content: fmt.Sprint(i)})
	}
	got := Recent(h, 5) // 5..9 starts with an assistant turn: drop it
	if len(got) != 4 || got[0].Content != "6" {
		t.Errorf("got %+v", got)
	}
	if got := Recent(h, 40); len(got) != 10 {
		t.Errorf("short history cut: %d", len(got))
	}
}
