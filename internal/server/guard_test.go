package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// testWait bounds every wait of these tests; generous for a loaded machine.
const testWait = 60 * time.Second

var testHTTP = &http.Client{Timeout: testWait}

// do sends method to url with the given headers and returns the status and
// the decoded JSON body (nil if not JSON).
func do(t *testing.T, method, url, body string, hdr map[string]string) (int, map[string]any) {
	t.Helper()
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, nil)
	if rd != nil {
		req, err = http.NewRequest(method, url, rd)
	}
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := testHTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

func TestGuard(t *testing.T) {
	var logs testenv.SyncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	var reached atomic.Int32
	p := &Policy{AllowedOrigins: []string{"vscode-webview://abc"}}
	srv := httptest.NewServer(p.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.WriteHeader(http.StatusTeapot)
	}), log))
	defer srv.Close()
	tests := []struct {
		name, method, path, body string
		hdr                      map[string]string
		rule                     Rule // "" means reaches the handler
	}{
		{"cli", "GET", "/x", "", nil, ""},
		{"cli json post", "POST", "/x", "{}", map[string]string{"Content-Type": "application/json"}, ""},
		{"bodyless delete", "DELETE", "/mcp", "", nil, ""},
		{"node fetch (Sec-Fetch-Mode only)", "POST", "/mcp", "{}", map[string]string{"Sec-Fetch-Mode": "cors", "Content-Type": "application/json"}, ""},
		{"same-origin browser", "POST", "/x", "{}", map[string]string{"Origin": srv.URL, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}, ""},
		{"listed origin", "GET", "/ws", "", map[string]string{"Origin": "vscode-webview://abc", "Sec-Fetch-Site": "cross-site"}, ""},
		{"evil origin", "GET", "/x", "", map[string]string{"Origin": "https://evil.example"}, RuleOrigin},
		{"null origin", "GET", "/ws", "", map[string]string{"Origin": "null"}, RuleOriginNull},
		{"rebinding", "GET", "/x", "", map[string]string{"Host": fmt.Sprintf("evil.example:%d", srv.Listener.Addr().(*net.TCPAddr).Port)}, RuleHost},
		{"cross-site fetch", "GET", "/x", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, RuleFetchSite},
		{"text/plain post", "POST", "/x", "{}", map[string]string{"Content-Type": "text/plain"}, RuleContentType},
		{"health exempt", "GET", "/health", "", map[string]string{"Origin": "null", "Host": "evil.example"}, ""},
		{"health post not exempt", "POST", "/health", "x", map[string]string{"Content-Type": "text/plain"}, RuleContentType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := reached.Load()
			code, body := do(t, tt.method, srv.URL+tt.path, tt.body, tt.hdr)
			if tt.rule == "" {
				if code != http.StatusTeapot || reached.Load() != before+1 {
					t.Errorf("got %d, want the handler's 418", code)
				}
				return
			}
			if code != http.StatusForbidden || reached.Load() != before {
				t.Fatalf("got %d, want 403", code)
			}
			e, _ := body["error"].(map[string]any)
			if e["rule"] != string(tt.rule) || e["code"] != "FORBIDDEN" || e["message"] == "" {
				t.Errorf("body = %v, want error with rule %q", body, tt.rule)
			}
			line := "rule=" + string(tt.rule) + " method=" + tt.method + " path=" + tt.path
			if !strings.Contains(logs.String(), line) {
				t.Errorf("no log line with %q:\n%s", line, logs.String())
			}
		})
	}
}

// Serve puts every handler behind the policy: a foreign Origin never
// reaches it, whatever handler the wiring passes.
func TestServeAppliesPolicy(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTeapot)
		}), &Options{Ready: func(a net.Addr) { ready <- a }, Policy: &Policy{AllowedHosts: []string{"paige.test"}}})
	}()
	base := "http://" + (<-ready).String()
	if code, _ := do(t, "GET", base+"/x", "", map[string]string{"Origin": "http://evil.example"}); code != http.StatusForbidden {
		t.Errorf("evil origin: got %d, want 403", code)
	}
	if code, _ := do(t, "GET", base+"/x", "", map[string]string{"Host": "paige.test"}); code != http.StatusTeapot {
		t.Errorf("listed host: got %d, want 418", code)
	}
	if code, _ := do(t, "GET", base+"/x", "", nil); code != http.StatusTeapot {
		t.Errorf("cli: got %d, want 418", code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
