package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/testenv"
)

// Scenarios 1.1–1.4, 1.7, 1.8, EC-02, EC-03 against the real server.
func TestServeLifecycle(t *testing.T) {
	env := serveEnv(t)
	s := startServe(t, env)

	// 1.1: the startup log names the address and the project; 1.7: DATA_DIR created.
	out := s.out.String()
	if !strings.Contains(out, "paige ready") || !strings.Contains(out, env["PROJECT_DIR"]) {
		t.Errorf("startup log lacks ready line or project:\n%s", out)
	}
	if fi, err := os.Stat(filepath.Join(env["DATA_DIR"], "paige.db")); err != nil || fi.Size() == 0 {
		t.Errorf("DATA_DIR/paige.db not created: %v", err)
	}
	// 1.4
	code, body := s.health(t)
	if code != http.StatusOK || body["status"] != "ok" {
		t.Errorf("health = %d %v", code, body)
	}
	if _, ok := body["uptime"].(float64); !ok {
		t.Errorf("uptime = %#v, want a number", body["uptime"])
	}
	// 1.2, EC-02: each client has its own UUID session.
	a, b := s.mcpClient(t), s.mcpClient(t)
	for _, cs := range []*mcp.ClientSession{a, b} {
		if _, err := uuid.Parse(cs.ID()); err != nil {
			t.Errorf("session id %q is not a UUID", cs.ID())
		}
	}
	if a.ID() == b.ID() {
		t.Error("two clients share a session id")
	}
	// 1.3: WebSocket upgrade, JSON both ways.
	w := s.ws(t)
	w.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{Version: "0.1", Platform: "linux"})
	w.expect(wsapi.TypeConnectionInit, nil)
	// EC-03: an editor that vanishes does not disturb the server.
	gone := s.ws(t)
	gone.c.CloseNow()
	// The server notices on its own time; the shutdown below counts the
	// connections left, so wait until it has.
	s.waitLog(t, regexp.MustCompile(`msg="websocket disconnected".* clients=1`))

	// 1.8: shutdown with an open MCP session and WebSocket connection.
	editorErr := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		for {
			if _, _, err := w.c.Read(ctx); err != nil {
				editorErr <- err
				return
			}
		}
	}()
	if err := s.shutdown(t); err != nil {
		t.Fatalf("serve returned %v, want nil (exit 0)", err)
	}
	logs := s.out.String()
	steps := []string{`"mcp sessions closed"`, `count=2`, `step="mcp sessions"`, `"websocket connections closed"`,
		`count=1`, `step="websocket connections"`, `step=watcher`, `step=timers`, `step=database`, `"paige stopped"`}
	at := 0
	for _, step := range steps {
		i := strings.Index(logs[at:], step)
		if i < 0 {
			t.Fatalf("shutdown log lacks %s after offset %d:\n%s", step, at, logs)
		}
		at += i
	}
	select {
	case err := <-editorErr:
		if websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Errorf("editor read after shutdown: %v, want close 1001", err)
		}
	case <-time.After(testWait):
		t.Errorf("the editor's connection is still open %v after shutdown, want close 1001", testWait)
	}
}

// The raw Streamable HTTP exchange: POST initialize answers Mcp-Session-Id,
// DELETE ends the session (FR-002, FR-009).
func TestServeMCPHTTP(t *testing.T) {
	s := startServe(t, serveEnv(t))
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	resp := doHTTP(t, http.MethodPost, s.base+"/mcp", init, "Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %s", resp.Status)
	}
	if _, err := uuid.Parse(id); err != nil {
		t.Fatalf("Mcp-Session-Id %q is not a UUID", id)
	}
	resp = doHTTP(t, http.MethodDelete, s.base+"/mcp", "", "Mcp-Session-Id", id)
	if resp.StatusCode >= 300 {
		t.Errorf("DELETE: %s", resp.Status)
	}
	// Cross-site browsers are refused on both endpoints.
	resp = doHTTP(t, http.MethodPost, s.base+"/mcp", init,
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site", "Content-Type", "application/json")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site POST /mcp: %s, want 403", resp.Status)
	}
}

// EC-01: a port in use exits non-zero with a clear message.
func TestServePortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	env := serveEnv(t)
	env["PORT"] = strings.TrimPrefix(ln.Addr().String(), "127.0.0.1:")
	var out testenv.SyncBuffer
	err = Run(context.Background(), []string{"serve"}, mapEnv(env), nil, &out, &out)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code == 0 || !strings.Contains(err.Error(), "already in use") {
		t.Fatalf("err = %v, want a non-zero exit saying the port is in use", err)
	}
	if !strings.Contains(out.String(), "step=database") {
		t.Errorf("opened resources not closed:\n%s", out.String())
	}
}

// EC-05: a signal before the server is ready is a clean stop (exit 0);
// whatever was opened is closed (see server.Serve and RunClosers).
func TestServeCancelledDuringStartup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out testenv.SyncBuffer
	if err := Run(ctx, []string{"serve"}, mapEnv(serveEnv(t)), nil, &out, &out); err != nil {
		t.Fatalf("err = %v, want nil", err)
	}
	if !strings.Contains(out.String(), "interrupted during startup") {
		t.Errorf("no interruption logged:\n%s", out.String())
	}
}

// EC-06: a corrupt database file stops startup with a clear error.
func TestServeCorruptDatabase(t *testing.T) {
	env := serveEnv(t)
	if err := os.MkdirAll(env["DATA_DIR"], 0o755); err != nil {
		t.Fatal(err)
	}
	junk := []byte(strings.Repeat("this is not a database ", 400))
	if err := os.WriteFile(filepath.Join(env["DATA_DIR"], "paige.db"), junk, 0o644); err != nil {
		t.Fatal(err)
	}
	var out testenv.SyncBuffer
	err := Run(context.Background(), []string{"serve"}, mapEnv(env), nil, &out, &out)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 1 || !strings.Contains(err.Error(), "paige.db") {
		t.Fatalf("err = %v, want exit 1 naming the database", err)
	}
}

// testWait bounds every single wait of a test on the server (an HTTP
// request, an MCP call, a subprocess): on a loaded CI machine a stuck wait
// fails with a message naming it instead of hanging the package.
const testWait = 60 * time.Second

// testHTTP is the HTTP client of the tests: like http.DefaultClient, with
// a deadline for the whole exchange, body included.
var testHTTP = &http.Client{Timeout: testWait}

// doHTTP sends a method request to url with body (none if empty) and the
// headers given as name, value pairs, and returns the response, its body
// read and closed: what the tests look at is the status and the headers.
func doHTTP(tb testing.TB, method, url, body string, headers ...string) *http.Response {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := testHTTP.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// served is a `paige serve` running in-process.
type served struct {
	base    string // http://127.0.0.1:port
	out     *testenv.SyncBuffer
	project string
	data    string
	stop    context.CancelFunc
	done    chan error
}

var readyRE = regexp.MustCompile(`Paige is ready on (http://\S+)`)

// serveEnv is a valid offline environment on a random port with a small project.
func serveEnv(tb testing.TB) map[string]string {
	tb.Helper()
	project, home := tb.TempDir(), tb.TempDir()
	for name, content := range map[string]string{
		"src/auth.ts": "export function login() {\n  return true;\n}\n",
		"README.md":   "# demo\n",
	} {
		p := filepath.Join(project, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return map[string]string{"HOME": home, "PROJECT_DIR": project, "PAIGE_OFFLINE": "1", "PORT": "0",
		"DATA_DIR": filepath.Join(home, "data", "nested"), "LOG_FORMAT": "text"}
}

// startServe runs serve with env until the test ends, waiting for the Ready line.
func startServe(tb testing.TB, env map[string]string) *served {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{out: &testenv.SyncBuffer{}, project: env["PROJECT_DIR"], data: env["DATA_DIR"], stop: cancel, done: make(chan error, 1)}
	go func() { s.done <- Run(ctx, []string{"serve"}, mapEnv(env), nil, s.out, s.out) }()
	deadline := time.Now().Add(testWait)
	for {
		if m := readyRE.FindStringSubmatch(s.out.String()); m != nil {
			s.base = m[1]
			break
		}
		select {
		case err := <-s.done:
			cancel()
			tb.Fatalf("serve exited early: %v\n%s", err, s.out.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			tb.Fatalf("serve not ready:\n%s", s.out.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	tb.Cleanup(func() { s.shutdown(tb) })
	return s
}

// waitLog waits until serve's output matches re.
func (s *served) waitLog(tb testing.TB, re *regexp.Regexp) {
	tb.Helper()
	deadline := time.Now().Add(testWait)
	for !re.MatchString(s.out.String()) {
		if time.Now().After(deadline) {
			tb.Fatalf("no log line matching %s within %v:\n%s", re, testWait, s.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// shutdown cancels serve (what SIGINT/SIGTERM do) and returns its error.
func (s *served) shutdown(tb testing.TB) error {
	tb.Helper()
	s.stop()
	select {
	case err, ok := <-s.done:
		if ok {
			close(s.done)
		}
		return err
	case <-time.After(testWait):
		tb.Fatalf("serve did not stop:\n%s", s.out.String())
		return nil
	}
}

// mcpClient connects the official SDK client over Streamable HTTP.
func (s *served) mcpClient(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	return s.mcpClientWith(tb, nil)
}

// mcpClientWith connects with the given HTTP client (nil: the default).
func (s *served) mcpClientWith(tb testing.TB, hc *http.Client) *mcp.ClientSession {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "claude-code-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		tb.Fatalf("mcp connect: %v", err)
	}
	tb.Cleanup(func() {
		closed := make(chan struct{})
		go func() { cs.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(testWait):
			tb.Errorf("mcp client session %s did not close within %v", cs.ID(), testWait)
		}
	})
	return cs
}

// callTool calls a tool, failing on protocol errors; it returns the
// structured result (decoded into out when non-nil) or the tool error text.
func callTool(tb testing.TB, cs *mcp.ClientSession, name string, args any, out any) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		return res.Content[0].(*mcp.TextContent).Text
	}
	if out != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
	}
	return ""
}

// wsClient is an editor connected to /ws.
type wsClient struct {
	tb testing.TB
	c  *websocket.Conn
}

func (s *served) ws(tb testing.TB) *wsClient {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/ws", nil)
	if err != nil {
		tb.Fatalf("ws dial: %v", err)
	}
	c.SetReadLimit(32 << 20)
	tb.Cleanup(func() { c.CloseNow() })
	return &wsClient{tb: tb, c: c}
}

func (w *wsClient) send(typ string, payload any) {
	w.tb.Helper()
	b, _ := json.Marshal(map[string]any{"type": typ, "payload": payload, "timestamp": time.Now().UnixMilli()})
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, b); err != nil {
		w.tb.Fatalf("ws send %s: %v", typ, err)
	}
}

// read reads the next message (within ctx) and decodes its envelope;
// waiting says, should none come, what the test was waiting for.
func (w *wsClient) read(ctx context.Context, waiting any) wsapi.Envelope {
	w.tb.Helper()
	_, b, err := w.c.Read(ctx)
	if err != nil {
		w.tb.Fatalf("waiting for %v: %v", waiting, err)
	}
	var env wsapi.Envelope
	if err := json.Unmarshal(b, &env); err != nil {
		w.tb.Fatal(err)
	}
	return env
}

// expect reads messages until one of type typ arrives (within testWait) and
// decodes its payload into out.
func (w *wsClient) expect(typ string, out any) wsapi.Envelope {
	w.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for {
		env := w.read(ctx, typ)
		if env.Type != typ {
			continue
		}
		if out != nil {
			if err := json.Unmarshal(env.Payload, out); err != nil {
				w.tb.Fatal(err)
			}
		}
		return env
	}
}

// health gets /health.
func (s *served) health(tb testing.TB) (int, map[string]any) {
	tb.Helper()
	return getJSON(tb, s.base+"/health")
}

// getJSON GETs url and returns the status code and the body's JSON object
// (nil when the body is not one).
func getJSON(tb testing.TB, url string) (int, map[string]any) {
	tb.Helper()
	resp, err := testHTTP.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

// getStatus reads GET /api/v1/status.
func (s *served) getStatus(tb testing.TB) Status {
	tb.Helper()
	res, err := http.Get(s.base + "/api/v1/status")
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		tb.Fatalf("GET /api/v1/status: %s", res.Status)
	}
	var st Status
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		tb.Fatal(err)
	}
	return st
}

// TestServeStatus: the status names the version, the models and that no key
// is set, the project, the data directory, the MCP URL and the line that
// connects Claude Code; Claude Code counts as connected while its MCP
// session is open, and "ever connected" survives a restart (the first-run
// panel is not shown again). The startup output names the same lines.
func TestServeStatus(t *testing.T) {
	t.Parallel()
	env := serveEnv(t)
	s := startServe(t, env)
	st := s.getStatus(t)
	if st.Version != Version || st.Models.KeySet || !st.Models.Offline || st.Models.Sonnet == "" {
		t.Errorf("version/models: %+v %+v", st.Version, st.Models)
	}
	if st.ProjectDir != env["PROJECT_DIR"] || st.DataDir != env["DATA_DIR"] || st.MCPURL != s.base+"/mcp" {
		t.Errorf("project %q data %q mcp %q", st.ProjectDir, st.DataDir, st.MCPURL)
	}
	if want := "claude mcp add --transport http paige " + s.base + "/mcp"; st.Connect.MCPAdd != want {
		t.Errorf("mcp add line: got %q, want %q", st.Connect.MCPAdd, want)
	}
	if st.ClaudeCode.Connected || st.ClaudeCode.EverConnected || st.Session != nil {
		t.Errorf("before Claude Code: %+v, session %+v", st.ClaudeCode, st.Session)
	}
	if !strings.Contains(st.Memory, "embedded") || st.Learning == "" || len(st.Docs) == 0 {
		t.Errorf("memory %q learning %q docs %v", st.Memory, st.Learning, st.Docs)
	}
	for _, line := range []string{"paige claude install", st.Connect.MCPAdd, "/paige:coach", s.base + "/status"} {
		if !strings.Contains(s.out.String(), line) {
			t.Errorf("startup output does not name %q:\n%s", line, s.out.String())
		}
	}

	cs := s.mcpClient(t)
	if st := s.getStatus(t); !st.ClaudeCode.Connected || !st.ClaudeCode.EverConnected || st.ClaudeCode.Sessions != 1 {
		t.Errorf("with an MCP session: %+v", st.ClaudeCode)
	}
	if _, err := os.Stat(filepath.Join(env["DATA_DIR"], "claude-code-connected")); err != nil {
		t.Errorf("first connection not persisted: %v", err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "paige_start_session",
		Arguments: map[string]any{"issueTitle": "Quantities"}}); err != nil {
		t.Fatal(err)
	}
	if st := s.getStatus(t); st.Session == nil || st.Session.IssueTitle != "Quantities" || !strings.Contains(st.Session.HowToEnd, "/paige:finish") {
		t.Errorf("active session: %+v", st.Session)
	}
	cs.Close()
	if err := s.shutdown(t); err != nil {
		t.Fatal(err)
	}
	s = startServe(t, env)
	if st := s.getStatus(t); st.ClaudeCode.Connected || !st.ClaudeCode.EverConnected {
		t.Errorf("after a restart: %+v", st.ClaudeCode)
	}
}

// TestMCPConformanceTypeScript runs test/mcp-conformance/conformance.mjs,
// the official TypeScript MCP SDK client, against the real server: it lists
// the tools and calls every one (success, tool-error and null cases) and
// fails on any protocol error, such as a result without the structured
// content its output schema requires. PAIGE_TEST_MCP_TS is the script's
// directory with node_modules installed (scripts/ci/45-mcp-ts.sh).
func TestMCPConformanceTypeScript(t *testing.T) {
	dir := testenv.Service(t, "PAIGE_TEST_MCP_TS", "the TypeScript MCP conformance client")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Fatalf("PAIGE_TEST_MCP_TS=%s has no @modelcontextprotocol/sdk: run npm ci there (%v)", dir, err)
	}
	node := testenv.Node(t)
	s := startServe(t, serveEnv(t))
	editor, cs := s.ws(t), s.mcpClient(t)
	editor.send(wsapi.TypeBufferUpdate, map[string]any{"path": "src/auth.ts", "content": "export const x = 1;\n",
		"cursorPosition": map[string]any{"line": 1, "column": 1}})
	deadline := time.Now().Add(testWait)
	for { // buffer:update has no acknowledgement: wait until the buffer is readable
		var b map[string]any
		if msg := callTool(t, cs, "paige_get_buffer", map[string]any{"path": "src/auth.ts"}, &b); msg == "" && b["path"] != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("buffer never stored")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*testWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "conformance.mjs", s.base+"/mcp")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("conformance client failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
