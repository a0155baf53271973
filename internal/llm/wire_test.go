package llm_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// Server and connector tools reach the wire as given (FR-083, FR-181),
// with MCP servers and the connector's beta header.
func TestConnectorToolsReachTheWire(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{})
	s.Enqueue(okReply)
	r := req("x")
	r.WebSearch = &llm.WebSearch{MaxUses: 2}
	r.Tools = []json.RawMessage{json.RawMessage(`{"type":"web_fetch_20250910","name":"web_fetch","max_uses":3}`)}
	r.MCPServers = []llm.MCPServer{
		{Name: "docs", URL: "https://mcp.example.com/sse", AuthorizationToken: "tok"},
		{Name: "gh", URL: "https://gh.example.com/mcp", AllowedTools: []string{"search_issues"}},
	}
	if _, _, err := llm.Call[verdict](context.Background(), c, r); err != nil {
		t.Fatal(err)
	}
	got := s.Requests()[0]
	var types []string
	for _, tool := range got.Tools {
		types = append(types, tool["type"].(string))
	}
	if want := []string{"web_search_20250305", "web_fetch_20250910", "mcp_toolset", "mcp_toolset"}; !slices.Equal(types, want) {
		t.Fatalf("tools: got %v, want %v (%s)", types, want, got.Raw)
	}
	if got.Tools[1]["max_uses"] != 3.0 || got.Tools[2]["mcp_server_name"] != "docs" || got.Tools[3]["mcp_server_name"] != "gh" {
		t.Errorf("tools: %v", got.Tools)
	}
	if cfg, _ := got.Tools[3]["configs"].(map[string]any); cfg["search_issues"] == nil {
		t.Errorf("allowed tools not configured: %v", got.Tools[3])
	}
	servers, _ := got.Body["mcp_servers"].([]any)
	if len(servers) != 2 {
		t.Fatalf("mcp_servers: got %v", got.Body["mcp_servers"])
	}
	first := servers[0].(map[string]any)
	if first["type"] != "url" || first["name"] != "docs" || first["url"] != "https://mcp.example.com/sse" || first["authorization_token"] != "tok" {
		t.Errorf("mcp_servers[0]: got %v", first)
	}
	if b := got.Header.Get("anthropic-beta"); b != llm.MCPConnectorBeta {
		t.Errorf("anthropic-beta: got %q, want %q", b, llm.MCPConnectorBeta)
	}
}

func TestInvalidToolsRejectedBeforeHTTP(t *testing.T) {
	for name, mod := range map[string]func(*llm.Request){
		"tool not an object": func(r *llm.Request) { r.Tools = []json.RawMessage{json.RawMessage(`[1]`)} },
		"tool without type":  func(r *llm.Request) { r.Tools = []json.RawMessage{json.RawMessage(`{"name":"x"}`)} },
		"mcp over http":      func(r *llm.Request) { r.MCPServers = []llm.MCPServer{{Name: "a", URL: "http://x"}} },
		"mcp without name":   func(r *llm.Request) { r.MCPServers = []llm.MCPServer{{URL: "https://x"}} },
	} {
		t.Run(name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, _ := newClient(t, s, llm.Options{})
			r := req("x")
			mod(&r)
			if _, _, err := llm.Call[verdict](context.Background(), c, r); err == nil || len(s.Requests()) != 0 {
				t.Errorf("err %v, requests %d: want an error and no request", err, len(s.Requests()))
			}
		})
	}
}

// Newer models (Opus 5.5, Fable 5.1) reject non-default sampling settings,
// forced tool use and disabled thinking; Call sends none of them, with or
// without tools (docs/models.md, "What changes with the newer models").
func TestRequestsSendNothingNewerModelsReject(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{})
	s.Enqueue(okReply, okReply)
	plain, tools := req("x"), req("y")
	tools.WebSearch = &llm.WebSearch{MaxUses: 1}
	for _, r := range []llm.Request{plain, tools} {
		if _, _, err := llm.Call[verdict](context.Background(), c, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, got := range s.Requests() {
		for _, key := range []string{"temperature", "top_p", "top_k", "tool_choice", "thinking"} {
			if _, ok := got.Body[key]; ok {
				t.Errorf("request sends %q: %s", key, got.Raw)
			}
		}
	}
}

// TestCallRedactsWhatItSends: a secret in the user message never reaches
// the model (issue 29); the marker does. The system prompt, the program's
// own text, is sent as written.
func TestCallRedactsWhatItSends(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{})
	s.Enqueue(llmtest.JSON(map[string]any{"decision": "go", "confidence": 1, "note": nil, "tags": []string{}}))
	r := req("deploy with glpat-Xy9zAbCdEfGh12345678 and mysql -u root -pS3cretPass42 shop")
	r.System = "Text inside <private> tags has been removed; never guess at it."
	if _, _, err := llm.Call[verdict](context.Background(), c, r); err != nil {
		t.Fatal(err)
	}
	sent := s.Requests()[0]
	for _, secret := range []string{"glpat-Xy9zAbCdEfGh12345678", "S3cretPass42"} {
		if strings.Contains(string(sent.Raw), secret) {
			t.Errorf("%s sent to the model: %s", secret, sent.Raw)
		}
	}
	if !strings.Contains(sent.LastUserText(), "[REDACTED:gitlab-token]") || sent.System != r.System {
		t.Errorf("sent user %q, system %q; want the markers", sent.LastUserText(), sent.System)
	}
}
