package cli

import (
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/paige-dev/paige/internal/coach/terminal"
	"github.com/paige-dev/paige/internal/coach/workbench"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

const workbenchToken = "serve-test-token-0123456789abcdef01234"

// workbenchRE: the workbench URL comes first, right before the other lines
// (logs share the test's buffer, so it need not be the buffer's first line).
var workbenchRE = regexp.MustCompile(`(?m)^Paige workbench: (http://\S+)/\?token=(\S+)\nPaige is ready on `)

// noRedirect is an HTTP client that shows redirects instead of following.
var noRedirect = &http.Client{Timeout: testWait,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// TestServeWorkbench drives `paige serve`: the workbench URL is the first
// line and carries the token, which the page trades for the cookie;
// connection:init tells the page whether it has it; /pty runs a shell for
// it and refuses everyone else; shutdown kills the shell.
func TestServeWorkbench(t *testing.T) {
	if workbench.FS() == nil {
		t.Skip("built with no_ui")
	}
	env := serveEnv(t)
	env["PAIGE_TOKEN"] = workbenchToken
	s := startServe(t, env)
	m := workbenchRE.FindStringSubmatch(s.out.String())
	if m == nil || m[1] != s.base || m[2] != workbenchToken {
		t.Fatalf("output: got %q, want the workbench URL with the token first", s.out.String())
	}

	res, err := noRedirect.Get(s.base + "/?token=" + workbenchToken)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookies := res.Cookies()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" || len(cookies) != 1 || !cookies[0].HttpOnly {
		t.Fatalf("token exchange: got %d to %q with %v", res.StatusCode, res.Header.Get("Location"), cookies)
	}
	cookie := cookies[0].Name + "=" + cookies[0].Value
	for path, want := range map[string]int{"/": 200, "/work": 200, "/api/nothing": 404} {
		res, err := testHTTP.Get(s.base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want || (want == 200) != strings.Contains(string(body), `id="root"`) {
			t.Errorf("GET %s: got %d %.60q, want %d", path, res.StatusCode, body, want)
		}
	}

	if got := helloTerminal(t, s, ""); got.Authorized || !got.Available {
		t.Errorf("terminal status without cookie: got %+v, want available, not authorized", got)
	}
	if got := helloTerminal(t, s, cookie); !got.Authorized {
		t.Errorf("terminal status with cookie: got %+v, want authorized", got)
	}

	host := strings.TrimPrefix(s.base, "http://")
	for name, h := range map[string]struct{ origin, host, cookie string }{
		"no cookie":    {s.base, "", ""},
		"cross origin": {"http://evil.example", "", cookie},
		"rebinding":    {"http://evil.example:" + host[strings.LastIndex(host, ":")+1:], "evil.example:" + host[strings.LastIndex(host, ":")+1:], cookie},
	} {
		if code := dialPty(t, s, h.origin, h.host, h.cookie); code != http.StatusForbidden {
			t.Errorf("/pty %s: got %d, want 403", name, code)
		}
	}

	ws := openPty(t, s, cookie)
	out := readPtyUntil(t, ws, "echo hel''lo-$((6*7)) pid=$$=\r", regexp.MustCompile(`hello-42 pid=(\d+)=`))
	pid, _ := strconv.Atoi(out[1])
	if err := s.shutdown(t); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	deadline := time.Now().Add(testWait)
	for !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		if time.Now().After(deadline) {
			t.Fatalf("shell %d still running after shutdown", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// helloTerminal connects to /ws with cookie and returns connection:init's
// terminal status.
func helloTerminal(t *testing.T, s *served, cookie string) wsapi.TerminalStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	h := http.Header{}
	if cookie != "" {
		h.Set("Cookie", cookie)
	}
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	w := &wsClient{tb: t, c: c}
	w.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{Version: "test"})
	var init wsapi.ConnectionInit
	w.expect(wsapi.TypeConnectionInit, &init)
	if init.Terminal == nil {
		t.Fatal("connection:init has no terminal status")
	}
	if init.FeatureFlags["model"] {
		t.Error("featureFlags.model: got true offline, want false")
	}
	return *init.Terminal
}

func dialPty(t *testing.T, s *served, origin, host, cookie string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	h := http.Header{"Origin": {origin}}
	if cookie != "" {
		h.Set("Cookie", cookie)
	}
	ws, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/pty", &websocket.DialOptions{HTTPHeader: h, Host: host})
	if err == nil {
		ws.CloseNow()
		return http.StatusSwitchingProtocols
	}
	if res == nil {
		t.Fatalf("dial /pty: %v", err)
	}
	return res.StatusCode
}

func openPty(t *testing.T, s *served, cookie string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	h := http.Header{"Origin": {s.base}, "Cookie": {cookie}}
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/pty", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatalf("dial /pty: %v", err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

// readPtyUntil types input and reads output frames until re matches.
func readPtyUntil(t *testing.T, ws *websocket.Conn, input string, re *regexp.Regexp) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	msg := `{"type":"` + terminal.TypeInput + `","data":` + strconv.Quote(input) + `}`
	if err := ws.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for {
		typ, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("reading the terminal: %v; output:\n%s", err, out.String())
		}
		if typ == websocket.MessageBinary {
			out.Write(b)
		}
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m
		}
	}
}

// TestServeWorkbenchRestartRestoresState: the server side of the
// workbench's reconnect. After a restart on the same DATA_DIR, a client
// that says hello again learns the active session from connection:init and
// gets it back from session:get_state, and the tree from fs:get_tree,
// without starting or resuming anything.
func TestServeWorkbenchRestartRestoresState(t *testing.T) {
	env := serveEnv(t)
	env["PAIGE_TOKEN"] = workbenchToken
	first := startServe(t, env)
	w := first.ws(t)
	n := 12
	w.send(wsapi.TypeSessionStart, wsapi.SessionStart{IssueNumber: &n, IssueTitle: "Restart me"})
	var started wsapi.SessionStarted
	w.expect(wsapi.TypeSessionStarted, &started)
	if err := first.shutdown(t); err != nil {
		t.Fatalf("shutdown: %v", err)
	}

	second := startServe(t, env)
	w = second.ws(t)
	w.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{Version: "test"})
	var init wsapi.ConnectionInit
	w.expect(wsapi.TypeConnectionInit, &init)
	if init.SessionID != started.SessionID {
		t.Fatalf("connection:init after restart: session %q, want %q", init.SessionID, started.SessionID)
	}
	w.send(wsapi.TypeSessionGetState, struct{}{})
	var st wsapi.SessionState
	w.expect(wsapi.TypeSessionState, &st)
	if st.RestoredState == nil || st.RestoredState.SessionID != started.SessionID ||
		st.RestoredState.IssueContext == nil || st.RestoredState.IssueContext.Title != "Restart me" {
		t.Errorf("session:state after restart: got %+v", st.RestoredState)
	}
	w.send(wsapi.TypeFSGetTree, struct{}{})
	var tree wsapi.FSTree
	w.expect(wsapi.TypeFSTree, &tree)
	if tree.Root == nil || len(tree.Root.Children) == 0 {
		t.Errorf("fs:tree after restart: got %+v", tree.Root)
	}
}
