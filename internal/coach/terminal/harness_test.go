package terminal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

const testToken = "test-token-0123456789abcdef0123456789"

// wait is the deadline of every wait in these tests: generous, as the
// machine running them may be loaded.
const wait = 30 * time.Second

type rig struct {
	m   *Manager
	srv *httptest.Server
}

// newRig serves a Manager on a random port with /bin/sh in a temp dir and
// a minimal environment (HOME empty, so no rc file runs).
func newRig(t testing.TB, edit func(*Options)) *rig {
	t.Helper()
	key, err := NewKey(testToken)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Key: key, Dir: t.TempDir(), Shell: "/bin/sh", Grace: 5 * time.Second,
		Env: []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "PAIGE_TOKEN=" + testToken, "PS1=$ "}}
	if edit != nil {
		edit(&o)
	}
	m := New(o)
	mux := http.NewServeMux()
	mux.Handle("GET /pty", m)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_ = m.Close(ctx)
		srv.Close()
	})
	return &rig{m: m, srv: srv}
}

func (r *rig) host() string { return strings.TrimPrefix(r.srv.URL, "http://") }

// cookie is the token cookie as the browser would send it.
func (r *rig) cookie() string { return CookieName(r.host()) + "=" + testToken }

// term is a connected test client collecting output.
type term struct {
	t    testing.TB
	ws   *websocket.Conn
	mu   sync.Mutex
	out  bytes.Buffer  // guarded by mu
	ctrl []string      // text frames received; guarded by mu
	done chan struct{} // closed when the read loop ends
	stat websocket.StatusCode
}

// dial opens /pty with the cookie and a same-origin Origin.
func (r *rig) dial(t testing.TB) *term {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	h := http.Header{"Cookie": {r.cookie()}, "Origin": {r.srv.URL}}
	ws, res, err := websocket.Dial(ctx, "ws://"+r.host()+"/pty?cols=100&rows=30", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		t.Fatalf("dial /pty: %v (status %d)", err, status)
	}
	ws.SetReadLimit(1 << 24)
	tm := &term{t: t, ws: ws, done: make(chan struct{})}
	go tm.read()
	t.Cleanup(func() { _ = ws.CloseNow() })
	return tm
}

func (tm *term) read() {
	defer close(tm.done)
	for {
		typ, b, err := tm.ws.Read(context.Background())
		if err != nil {
			tm.stat = websocket.CloseStatus(err)
			return
		}
		tm.mu.Lock()
		if typ == websocket.MessageBinary {
			tm.out.Write(b)
		} else {
			tm.ctrl = append(tm.ctrl, string(b))
		}
		tm.mu.Unlock()
	}
}

func (tm *term) send(v any) {
	tm.t.Helper()
	b, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := tm.ws.Write(ctx, websocket.MessageText, b); err != nil {
		tm.t.Fatalf("send: %v", err)
	}
}

func (tm *term) input(s string) { tm.t.Helper(); tm.send(Input{Type: TypeInput, Data: s}) }

// waitOutput polls the output until re matches and returns the submatches.
func (tm *term) waitOutput(re *regexp.Regexp) []string {
	tm.t.Helper()
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		tm.mu.Lock()
		m := re.FindStringSubmatch(tm.out.String())
		tm.mu.Unlock()
		if m != nil {
			return m
		}
		select {
		case <-tm.done:
			tm.mu.Lock()
			defer tm.mu.Unlock()
			if m := re.FindStringSubmatch(tm.out.String()); m != nil {
				return m
			}
			tm.t.Fatalf("terminal closed before %s; output:\n%s", re, tm.out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.t.Fatalf("no %s within %s; output:\n%s", re, wait, tm.out.String())
	return nil
}

// shellPID asks the shell for its pid.
func (tm *term) shellPID() int {
	tm.t.Helper()
	tm.input("echo pid=$$=done\r")
	m := tm.waitOutput(regexp.MustCompile(`pid=(\d+)=done`))
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// waitGone polls until pid no longer exists.
func waitGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d still running after %s", pid, wait)
}

func (tm *term) waitClosed() websocket.StatusCode {
	tm.t.Helper()
	select {
	case <-tm.done:
		return tm.stat
	case <-time.After(wait):
		tm.t.Fatalf("socket still open after %s", wait)
		return 0
	}
}
