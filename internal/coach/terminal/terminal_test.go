package terminal

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestPtyRefusals: the terminal answers 403 to a request without the
// cookie, with a wrong cookie, from another origin (even with the cookie),
// from Origin null, and to a rebinding Host (even with the cookie).
func TestPtyRefusals(t *testing.T) {
	r := newRig(t, nil)
	good := r.cookie()
	tests := []struct {
		name, host, origin, cookie string
	}{
		{"no cookie", "", r.srv.URL, ""},
		{"wrong cookie", "", r.srv.URL, CookieName(r.host()) + "=nope-0123456789abcdef0123456789abcdef"},
		{"cookie of another port", "", r.srv.URL, CookiePrefix + "_1=" + testToken},
		{"cross origin with cookie", "", "http://evil.example", good},
		{"other local port with cookie", "", "http://127.0.0.1:1", good},
		{"origin null with cookie", "", "null", good},
		{"rebinding host with cookie", "evil.example:" + portOf(r.host()), "http://evil.example:" + portOf(r.host()), good},
		{"rebinding host without origin", "evil.example", "", good},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.origin != "" {
				h.Set("Origin", tt.origin)
			}
			if tt.cookie != "" {
				h.Set("Cookie", tt.cookie)
			}
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			ws, res, err := websocket.Dial(ctx, "ws://"+r.host()+"/pty", &websocket.DialOptions{HTTPHeader: h, Host: tt.host})
			if err == nil {
				ws.CloseNow()
				t.Fatal("dial succeeded, want 403")
			}
			if res == nil || res.StatusCode != http.StatusForbidden {
				t.Fatalf("got %v (%v), want 403", res, err)
			}
		})
	}
	if n := r.m.Len(); n != 0 {
		t.Errorf("terminals running after refusals: %d", n)
	}
}

func portOf(host string) string { return host[strings.LastIndex(host, ":")+1:] }

// TestPtyEchoRoundTrip: the good path runs a real shell in Dir: input goes
// in, output comes back, resize reaches the pty, and closing the socket
// kills the shell.
func TestPtyEchoRoundTrip(t *testing.T) {
	r := newRig(t, nil)
	tm := r.dial(t)
	tm.input("echo hel''lo-$((6*7))\r") // the echo of the typed line never matches
	tm.waitOutput(regexp.MustCompile(`hello-42`))

	tm.input("pwd\r")
	tm.waitOutput(regexp.MustCompile(regexp.QuoteMeta(r.m.o.Dir)))
	tm.input("stty size; echo size-done\r")
	tm.waitOutput(regexp.MustCompile(`30 100\s+size-done`))
	tm.send(Resize{Type: TypeResize, Cols: 120, Rows: 40})
	tm.input("stty size; echo resized-done\r")
	tm.waitOutput(regexp.MustCompile(`40 120\s+resized-done`))
	tm.input("echo token=${PAIGE_TOKEN:-unset}=url=$PAIGE_URL=\r")
	tm.waitOutput(regexp.MustCompile(`token=unset=url=` + regexp.QuoteMeta(r.srv.URL) + `=`))

	pid := tm.shellPID()
	if err := tm.ws.Close(websocket.StatusNormalClosure, "page closed"); err != nil {
		t.Logf("close: %v", err)
	}
	waitGone(t, pid)
	deadline := time.Now().Add(wait)
	for r.m.Len() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := r.m.Len(); n != 0 {
		t.Errorf("terminals after close: %d, want 0", n)
	}
}

// TestPtyShellExit: exiting the shell sends exit with the code and closes
// the socket normally.
func TestPtyShellExit(t *testing.T) {
	r := newRig(t, nil)
	tm := r.dial(t)
	tm.input("exit 3\r")
	if got := tm.waitClosed(); got != websocket.StatusNormalClosure {
		t.Errorf("close status: got %v, want 1000", got)
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if len(tm.ctrl) == 0 || tm.ctrl[len(tm.ctrl)-1] != `{"type":"exit","code":3}` {
		t.Errorf("control messages: got %q, want the exit message with code 3", tm.ctrl)
	}
}

// TestPtyShutdownKillsShells: Manager.Close ends every shell, closes their
// sockets with 1001 and refuses new terminals.
func TestPtyShutdownKillsShells(t *testing.T) {
	r := newRig(t, nil)
	a, b := r.dial(t), r.dial(t)
	pa, pb := a.shellPID(), b.shellPID()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := r.m.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	waitGone(t, pa)
	waitGone(t, pb)
	for _, tm := range []*term{a, b} {
		if got := tm.waitClosed(); got != websocket.StatusGoingAway {
			t.Errorf("close status: got %v, want 1001", got)
		}
	}
	res := upgradeStatus(t, r)
	if res != http.StatusServiceUnavailable {
		t.Errorf("after Close: got %d, want 503", res)
	}
}

// TestPtyLimit: beyond Max the upgrade is refused with 503.
func TestPtyLimit(t *testing.T) {
	r := newRig(t, func(o *Options) { o.Max = 1 })
	tm := r.dial(t)
	tm.shellPID()
	if got := upgradeStatus(t, r); got != http.StatusServiceUnavailable {
		t.Errorf("second terminal: got %d, want 503", got)
	}
}

func upgradeStatus(t *testing.T, r *rig) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	h := http.Header{"Cookie": {r.cookie()}, "Origin": {r.srv.URL}}
	ws, res, err := websocket.Dial(ctx, "ws://"+r.host()+"/pty", &websocket.DialOptions{HTTPHeader: h})
	if err == nil {
		ws.CloseNow()
		return http.StatusSwitchingProtocols
	}
	if res == nil {
		t.Fatalf("dial: %v", err)
	}
	return res.StatusCode
}

// TestPtyBadControlMessage: a bad control frame is answered with an error
// message and the terminal keeps working.
func TestPtyBadControlMessage(t *testing.T) {
	r := newRig(t, nil)
	tm := r.dial(t)
	tm.send(map[string]any{"type": "resize", "cols": 0, "rows": 5})
	tm.send(map[string]any{"type": "launch"})
	tm.input("echo still-''alive\r")
	tm.waitOutput(regexp.MustCompile(`still-alive`))
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if len(tm.ctrl) != 2 || !strings.Contains(tm.ctrl[0], `"type":"error"`) || !strings.Contains(tm.ctrl[1], "launch") {
		t.Errorf("control messages: got %q, want two errors", tm.ctrl)
	}
}

// TestPtyClaudeWrapper: `claude` typed in the terminal runs the real claude
// with the generated plugin, whose MCP server is this server; without
// Claude Code on PATH it says how to install it. The shell's PATH holds
// only the test's directories, so whatever claude the machine has (in
// /usr/bin with Debian's Node) is never found.
func TestPtyClaudeWrapper(t *testing.T) {
	fake := t.TempDir()
	script := "#!/bin/sh\necho \"FAKE-CLAUDE $*\"\n"
	if err := os.WriteFile(filepath.Join(fake, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	kit := &ClaudeKit{Bin: "/opt/paige bin/paige", Version: "v1.2.3"}
	r := newRig(t, func(o *Options) {
		o.Claude = kit
		o.Env = append(o.Env, "PATH="+fake)
	})
	req, _ := http.NewRequest("GET", r.srv.URL, nil)
	if st := r.m.Status(req); !st.ClaudeOnPath || st.Authorized {
		t.Errorf("status: got %+v, want claude on PATH, not authorized", st)
	}
	tm := r.dial(t)
	tm.input("claude --print hi\r")
	m := tm.waitOutput(regexp.MustCompile(`FAKE-CLAUDE --plugin-dir (\S+) --print hi`))
	mcp, err := os.ReadFile(filepath.Join(m[1], ".mcp.json"))
	if err != nil || !strings.Contains(string(mcp), `"url": "`+r.srv.URL+`/mcp"`) {
		t.Errorf(".mcp.json: got %s (%v), want the server's /mcp", mcp, err)
	}
	hooks, err := os.ReadFile(filepath.Join(m[1], "hooks", "hooks.json"))
	if err != nil || !strings.Contains(string(hooks), `'/opt/paige bin/paige' hook pre-tool-use`) {
		t.Errorf("hooks.json: got %s (%v), want the paige binary's hooks", hooks, err)
	}

	// Without Claude Code on PATH: the wrapper explains.
	empty := t.TempDir()
	r2 := newRig(t, func(o *Options) {
		o.Claude = &ClaudeKit{Bin: "/bin/paige"}
		o.Env = append(o.Env, "PATH="+empty)
	})
	if st := r2.m.Status(req); st.ClaudeOnPath {
		t.Errorf("status: got claude on PATH, want not")
	}
	tm2 := r2.dial(t)
	tm2.input("claude\r")
	tm2.waitOutput(regexp.MustCompile(`Claude Code is not installed: npm install`))

	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := r.m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(m[1])); !os.IsNotExist(err) {
		t.Errorf("kit dir after Close: %v, want removed", err)
	}
}
