package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The answers mcpload needs: a session id from initialize, 202 for a
// notification, and a paige_get_buffer-shaped result with the call's id.
func TestHandlerAnswers(t *testing.T) {
	h := newHandler(2500)
	post := func(body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body)))
		return w
	}
	w := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if w.Code != http.StatusOK || w.Header().Get("Mcp-Session-Id") == "" || !strings.Contains(w.Body.String(), `"protocolVersion"`) {
		t.Errorf("initialize: %d %q %s", w.Code, w.Header().Get("Mcp-Session-Id"), w.Body)
	}
	if w := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); w.Code != http.StatusAccepted {
		t.Errorf("notification: %d, want 202", w.Code)
	}
	w = post(`{"jsonrpc":"2.0","id":4711,"method":"tools/call","params":{"name":"paige_get_buffer","arguments":{"path":"src/auth.ts"}}}`)
	var resp struct {
		ID     int `json:"id"`
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			StructuredContent struct {
				Content string `json:"content"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || resp.ID != 4711 {
		t.Fatalf("tools/call: %v, id %d: %.200s", err, resp.ID, w.Body)
	}
	var fromText struct {
		Content string `json:"content"`
	}
	if len(resp.Result.Content) != 1 || json.Unmarshal([]byte(resp.Result.Content[0].Text), &fromText) != nil ||
		len(resp.Result.StructuredContent.Content) != 2500 || fromText.Content != resp.Result.StructuredContent.Content {
		t.Errorf("tools/call: buffer of %d bytes, want 2500, as text and structured content", len(resp.Result.StructuredContent.Content))
	}
	if got := w.Header().Get("Content-Length"); got != "" && got != itoa(w.Body.Len()) {
		t.Errorf("Content-Length %s for %d bytes", got, w.Body.Len())
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// -server plain serves until its context ends; bad flags exit 2.
func TestServePlainAndFlags(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- servePlain(ctx, "127.0.0.1:0", newHandler(10), func(a net.Addr) { addrs <- a }) }()
	a := <-addrs
	resp, err := http.Post("http://"+a.String()+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call"}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("call: %v %v", resp, err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("servePlain: %v", err)
	}
	for _, args := range [][]string{{"-server", "other"}, {"-buffer-bytes", "-1"}, {"-addr", "10.1.2.3:80"}, {"extra"}} {
		var out, errOut bytes.Buffer
		if code := realMain(args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, &errOut)
		}
	}
}
