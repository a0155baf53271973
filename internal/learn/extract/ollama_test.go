package extract

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/paige-dev/paige/internal/learn"
)

// planTurns are the turns of the plan's task 4 tests.
var planTurns = []learn.Turn{
	{Role: learn.User, Content: "I prefer using pnpm for package management"},
	{Role: learn.Assistant, Content: "I'll use pnpm going forward."},
	{Role: learn.User, Content: "Let's set up TypeScript strict mode"},
	{Role: learn.Assistant, Content: "Setting up TypeScript strict mode."},
}

// planItems is the model answer the plan's task 4 tests script.
var planItems = Extraction{Items: []Item{
	{Type: "preference", Content: "User prefers pnpm over npm", Confidence: 0.95, Evidence: "User said: I prefer using pnpm", Entities: []string{"pnpm", "npm"}},
	{Type: "fact", Content: "Project uses TypeScript strict mode", Confidence: 0.85, Evidence: "User requested strict mode setup", Entities: []string{"TypeScript"}},
}}

// fakeOllama serves POST /api/chat; reply returns the message content or
// an error status.
type fakeOllama struct {
	mu   sync.Mutex
	reqs []OllamaChatRequest
	srv  *httptest.Server
}

func newFakeOllama(tb testing.TB, reply func(OllamaChatRequest) (int, string)) *fakeOllama {
	tb.Helper()
	f := &fakeOllama{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/chat" {
			http.NotFound(w, r)
			return
		}
		var req OllamaChatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":"bad json"}`, 400)
			return
		}
		f.mu.Lock()
		f.reqs = append(f.reqs, req)
		f.mu.Unlock()
		status, content := reply(req)
		if status != 200 {
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]string{"error": content})
			return
		}
		json.NewEncoder(w).Encode(OllamaChatResponse{Model: req.Model, Done: true, Message: OllamaMessage{Role: "assistant", Content: content},
			PromptEvalCount: 120, EvalCount: 40})
	}))
	tb.Cleanup(f.srv.Close)
	return f
}

func jsonString(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestOllamaExtract(t *testing.T) {
	f := newFakeOllama(t, func(OllamaChatRequest) (int, string) { return 200, jsonString(t, planItems) })
	x := &Ollama{URL: f.srv.URL, Model: "llama3.2"}
	entries, err := x.Extract(context.Background(), planTurns, "session:test")
	if err != nil {
		t.Fatal(err)
	}
	assertPlanEntries(t, entries)

	req := f.reqs[0]
	if req.Model != "llama3.2" || req.Stream {
		t.Errorf("request: model %q stream %v, want llama3.2, false", req.Model, req.Stream)
	}
	format, _ := json.Marshal(req.Format)
	if !strings.Contains(string(format), `"enum":["preference","fact","rule","procedure","correction","decision"]`) {
		t.Errorf("format is not the extraction schema: %s", format)
	}
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || !strings.Contains(req.Messages[1].Content, "[USER]: I prefer using pnpm") {
		t.Errorf("messages: %+v", req.Messages)
	}
	if x.Name() != "ollama:llama3.2" {
		t.Errorf("name: got %q", x.Name())
	}
}

func TestOllamaErrors(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		content string
		want    string
	}{
		{"model missing", 404, `model "nope" not found, try pulling it first`, `model "nope" not found`},
		{"not json", 200, "Sure! Here is what I learned", "not the extraction JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeOllama(t, func(OllamaChatRequest) (int, string) { return tt.status, tt.content })
			_, err := (&Ollama{URL: f.srv.URL, Model: "nope"}).Extract(context.Background(), planTurns, "s")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := (&Ollama{URL: "http://127.0.0.1:1"}).Extract(context.Background(), planTurns, "s"); err == nil {
		t.Error("no model name: got nil error")
	}
}

// assertPlanEntries checks the plan's task 4 expectations.
func assertPlanEntries(tb testing.TB, entries []learn.Entry) {
	tb.Helper()
	if len(entries) != 2 || entries[0].Type != learn.Preference || entries[1].Type != learn.Fact {
		tb.Fatalf("got %+v, want a preference and a fact", entries)
	}
	e := entries[0]
	if e.ID == "" || e.Source != "session:test" || e.ExtractedAt == "" {
		tb.Errorf("id/source/time not assigned: %+v", e)
	}
	if e.Confidence != 0.95 || !strings.Contains(strings.Join(e.Entities, ","), "pnpm") {
		tb.Errorf("confidence/entities not kept: %+v", e)
	}
	if !strings.Contains(e.Evidence, "pnpm") {
		tb.Errorf("evidence: %q", e.Evidence)
	}
}
