package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/testenv"
)

// testWait bounds every single wait of a test on the server (an HTTP
// request, an MCP call, a subprocess): on a loaded CI machine a stuck wait
// fails with a message naming it instead of hanging the package.
const testWait = 60 * time.Second

// testHTTP is the HTTP client of the tests: like http.DefaultClient, with
// a deadline for the whole exchange, body included.
var testHTTP = &http.Client{Timeout: testWait}

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

// expect reads messages until one of type typ arrives (within testWait) and
// decodes its payload into out.
func (w *wsClient) expect(typ string, out any) wsapi.Envelope {
	w.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for {
		_, b, err := w.c.Read(ctx)
		if err != nil {
			w.tb.Fatalf("waiting for %s: %v", typ, err)
		}
		var env wsapi.Envelope
		if err := json.Unmarshal(b, &env); err != nil {
			w.tb.Fatal(err)
		}
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
	resp, err := testHTTP.Get(s.base + "/health")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}
