package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/server"
)

// wiredPatterns wires a whole server the way serve does, into the same
// recording mux, and returns every pattern registered: a route added to
// wire later is in this list without anyone adding it.
func wiredPatterns(t *testing.T) []string {
	t.Helper()
	cfg, err := config.Load(mapEnv(serveEnv(t)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	a := &app{cfg: cfg, log: newLogger(io.Discard, "text", "error"), start: time.Now()}
	m := newRouteMux()
	err = wire(context.Background(), a, m)
	t.Cleanup(func() { server.RunClosers(context.Background(), a.log, a.closers, server.DefaultShutdownTimeout) })
	if err != nil {
		t.Fatal(err)
	}
	return m.Patterns()
}

var wildcardRE = regexp.MustCompile(`\{[^}]*\}`)

// concrete turns a ServeMux pattern into a request method and path:
// wildcards become "sample", {$} disappears, no method means GET.
func concrete(pattern string) (method, path string) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		method, path = http.MethodGet, pattern
	}
	path = strings.ReplaceAll(path, "{$}", "")
	return method, wildcardRE.ReplaceAllString(path, "sample")
}

// policyCase is one request tried on every route.
type policyCase struct {
	name string
	rule server.Rule // "" means the policy lets it through
	// build, if non-nil, adds the case's headers to a request to the
	// server at base (port is its port).
	build func(r *http.Request, base, port string)
	text  bool // send a text/plain body with POST (or the route's state-changing method)
}

var policyCases = []policyCase{
	{name: "evil origin", rule: server.RuleOrigin, build: func(r *http.Request, _, _ string) {
		r.Header.Set("Origin", "https://evil.example")
	}},
	{name: "null origin", rule: server.RuleOriginNull, build: func(r *http.Request, _, _ string) {
		r.Header.Set("Origin", "null")
	}},
	{name: "rebinding host", rule: server.RuleHost, build: func(r *http.Request, _, port string) {
		r.Host = "evil.example:" + port
		r.Header.Set("Origin", "http://evil.example:"+port)
	}},
	{name: "cross-site fetch", rule: server.RuleFetchSite, build: func(r *http.Request, _, _ string) {
		r.Header.Set("Sec-Fetch-Site", "cross-site")
	}},
	{name: "default vite origin", rule: server.RuleOrigin, build: func(r *http.Request, _, _ string) {
		r.Header.Set("Origin", "http://localhost:5173")
	}},
	{name: "text/plain post", rule: server.RuleContentType, text: true},
	{name: "same-origin browser", build: func(r *http.Request, base, _ string) {
		r.Header.Set("Origin", base)
		r.Header.Set("Sec-Fetch-Site", "same-origin")
	}},
	{name: "bare cli"},
}

// request builds c's request for the route method+path of the server at base.
func (c policyCase) request(t *testing.T, base, method, path string) *http.Request {
	t.Helper()
	port := base[strings.LastIndex(base, ":")+1:]
	body, ct := "", ""
	switch {
	case c.text:
		if !stateChanging(method) {
			method = http.MethodPost
		}
		body, ct = `{"a":1}`, "text/plain"
	case stateChanging(method):
		body, ct = "{}", "application/json"
	}
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == "" {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if c.build != nil {
		c.build(req, base, port)
	}
	return req
}

// terminalCookies trades the terminal's key for its cookie, as the page
// opened from the printed URL does.
func terminalCookies(t *testing.T, c *http.Client, base, token string) []*http.Cookie {
	t.Helper()
	resp, err := c.Get(base + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(resp.Cookies()) == 0 {
		t.Fatalf("GET /?token=: %s, no cookie", resp.Status)
	}
	return resp.Cookies()
}

func stateChanging(m string) bool {
	return m == http.MethodPost || m == http.MethodPut || m == http.MethodPatch || m == http.MethodDelete
}

// Every route wire registers is behind the one origin policy: the refused
// cases answer 403 naming their rule, a same-origin browser and a bare CLI
// request get through. GET /health is exempt.
func TestServeEveryRouteBehindPolicy(t *testing.T) {
	patterns := wiredPatterns(t)
	if len(patterns) < 20 {
		t.Fatalf("only %d patterns recorded: %v", len(patterns), patterns)
	}
	env := serveEnv(t)
	env["PAIGE_TOKEN"] = strings.Repeat("k", 43)
	s := startServe(t, env)
	noRedirect := &http.Client{Timeout: testWait, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	// The terminal asks for its key as well as the policy: every request
	// carries the key's cookie, so a 403 can only be the policy's.
	keyCookies := terminalCookies(t, noRedirect, s.base, env["PAIGE_TOKEN"])
	for _, pattern := range patterns {
		method, path := concrete(pattern)
		for _, c := range policyCases {
			t.Run(pattern+"/"+c.name, func(t *testing.T) {
				req := c.request(t, s.base, method, path)
				for _, k := range keyCookies {
					req.AddCookie(k)
				}
				resp, err := noRedirect.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				var body struct {
					Error struct{ Code, Rule, Message string } `json:"error"`
				}
				_ = json.NewDecoder(resp.Body).Decode(&body)
				want := c.rule
				if pattern == "GET /health" && !c.text {
					want = "" // exempt
				}
				if want == "" {
					if resp.StatusCode == http.StatusForbidden {
						t.Errorf("%s %s: 403 %+v, want it let through", method, path, body.Error)
					}
					return
				}
				if resp.StatusCode != http.StatusForbidden || body.Error.Rule != string(want) || body.Error.Code != "FORBIDDEN" {
					t.Errorf("%s %s: %d %+v, want 403 rule %q", method, path, resp.StatusCode, body.Error, want)
				}
			})
		}
	}
	if !regexp.MustCompile(`request refused by the origin policy" rule=origin-null method=GET path=/ws origin=null`).MatchString(s.out.String()) {
		t.Errorf("no refusal log line for /ws:\n%.2000s", s.out.String())
	}
	t.Logf("routes checked: %q", patterns)
}

// The real clients get through the policy: the MCP SDK client, including
// the bodyless DELETE that ends its session, and a WebSocket from the
// server's own page; a WebSocket from another page is refused before the
// upgrade.
func TestServePolicyRealClients(t *testing.T) {
	env := serveEnv(t)
	env["PAIGE_ALLOWED_ORIGINS"] = "vscode-webview://abc123"
	env["CORS_ORIGINS"] = "http://localhost:5173"
	s := startServe(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()

	c := mcp.NewClient(&mcp.Implementation{Name: "claude-code-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("mcp connect: %v", err)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	id := cs.ID()
	if err := cs.Close(); err != nil {
		t.Fatalf("close (DELETE /mcp): %v", err)
	}
	// The DELETE got through: the session is gone on the server.
	resp := doHTTP(t, http.MethodPost, s.base+"/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Mcp-Session-Id", id)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST on the closed session: %s, want 404 (DELETE refused?)", resp.Status)
	}

	wsURL := "ws" + strings.TrimPrefix(s.base, "http") + "/ws"
	for _, origin := range []string{s.base, "vscode-webview://abc123"} {
		ws, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {origin}}})
		if err != nil {
			t.Errorf("ws from %s: %v", origin, err)
			continue
		}
		ws.CloseNow()
	}
	for _, origin := range []string{"null", "file://", "https://evil.example", "http://localhost:5174"} {
		ws, resp, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {origin}}})
		if err == nil {
			ws.CloseNow()
			t.Errorf("ws from %s accepted", origin)
		} else if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("ws from %s: %v, want 403", origin, err)
		}
	}

	// An explicitly set CORS_ORIGINS is trusted by the policy, and the API
	// answers it with CORS headers.
	resp = doHTTP(t, http.MethodGet, s.base+"/api/v1/sessions", "", "Origin", "http://localhost:5173", "Sec-Fetch-Site", "same-site")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
		t.Errorf("CORS_ORIGINS origin: %s, ACAO %q", resp.Status, resp.Header.Get("Access-Control-Allow-Origin"))
	}
}

// The policy trusts the listed origins and an explicitly set CORS_ORIGINS,
// leaving out CORS entries that are not exact origins; the API's default
// CORS origins are not trusted.
func TestOriginPolicy(t *testing.T) {
	log := newLogger(io.Discard, "text", "error")
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"none", map[string]string{}, nil},
		{"listed", map[string]string{"PAIGE_ALLOWED_ORIGINS": "app://paige"}, []string{"app://paige"}},
		{"cors adds", map[string]string{"PAIGE_ALLOWED_ORIGINS": "app://paige", "CORS_ORIGINS": `["http://A.test:5173", "*", "null"]`},
			[]string{"app://paige", "http://a.test:5173"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Load(mapEnv(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, originPolicy(cfg, log).AllowedOrigins, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
