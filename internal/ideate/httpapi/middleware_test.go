package httpapi

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func TestCORS(t *testing.T) {
	e := newEnv(t)
	for _, tt := range []struct {
		method, origin, wantAllow string
		wantStatus                int
	}{
		{"OPTIONS", "http://localhost:5173", "http://localhost:5173", 204},
		{"GET", "http://127.0.0.1:5173", "http://127.0.0.1:5173", 200},
		{"GET", "http://evil.example", "", 200},
	} {
		req, _ := http.NewRequest(tt.method, e.srv.URL+"/api/v1/sessions", nil)
		req.Header.Set("Origin", tt.origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.wantStatus || resp.Header.Get("Access-Control-Allow-Origin") != tt.wantAllow {
			t.Errorf("%s from %s: got %d allow %q", tt.method, tt.origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
		}
		if tt.method == "OPTIONS" && !strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") {
			t.Errorf("preflight methods got %q", resp.Header.Get("Access-Control-Allow-Methods"))
		}
	}
}

func TestStreamKeepAliveAndFormat(t *testing.T) {
	e := newEnv(t) // heartbeat every 50 ms
	id := e.create(problem)
	e.fake.Enqueue(llmtest.Text("done thinking").WithDelay(300 * time.Millisecond))
	resp := e.do("GET", "/api/v1/sessions/"+id+"/stream", nil)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	body := string(raw)
	if resp.Header.Get("Cache-Control") != "no-cache" || !strings.Contains(body, ": keep-alive\n\n") {
		t.Errorf("headers %v, body %q", resp.Header, body)
	}
	if !strings.Contains(body, "data: {\"type\":\"agent_text\",\"data\":\"done thinking\"}\n\n") ||
		!strings.HasSuffix(body, "data: {\"type\":\"done\",\"data\":{\"error\":false,\"awaiting_input\":false}}\n\n") {
		t.Errorf("body %q", body)
	}
}
