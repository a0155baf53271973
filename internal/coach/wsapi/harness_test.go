package wsapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/coachtest"

	"github.com/coder/websocket"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/workspace"
	"github.com/paige-dev/paige/internal/testenv"
)

// testLog logs through t, from debug level up.
func testLog(t testing.TB) *slog.Logger { return testenv.Logger(t, slog.LevelDebug) }

// nopFiles is a Files that is never called.
type nopFiles struct{}

func (nopFiles) ReadFile(context.Context, string) (FileContent, error) { return FileContent{}, nil }
func (nopFiles) WriteFile(context.Context, string, string) (string, error) {
	return "", nil
}
func (nopFiles) UpdateBuffer(context.Context, BufferUpdate) (string, error) {
	return "", nil
}
func (nopFiles) Tree(context.Context) (*TreeNode, error) { return &TreeNode{}, nil }

type harness struct {
	srv     *Server
	st      *store.Store
	sess    *session.Service
	ws      *workspace.Workspace
	project string
	url     string
}

func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	ctx := context.Background()
	env := coachtest.New(t, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	project, st, ws, al := env.Project, env.Store, env.WS, env.Actions
	sess, err := session.New(ctx, st, al, &session.Options{ProjectDir: project, Normalize: ws.Guard().Normalize})
	if err != nil {
		t.Fatal(err)
	}
	opts.Files, opts.Session = WorkspaceFiles{WS: ws, Buffers: al}, sess
	srv := New(opts)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Hub().Close(); hs.Close() })
	return &harness{srv: srv, st: st, sess: sess, ws: ws, project: project,
		url: "ws" + strings.TrimPrefix(hs.URL, "http")}
}

// client is a test WebSocket client.
type client struct {
	t  testing.TB
	ws *websocket.Conn
}

func (h *harness) dial(t testing.TB) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	before := h.srv.Hub().Len()
	ws, _, err := websocket.Dial(ctx, h.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(64 << 20)
	t.Cleanup(func() { ws.CloseNow() })
	// The handshake completes before the server registers the connection in
	// its hub; a broadcast sent in between would miss this client.
	for deadline := time.Now().Add(10 * time.Second); h.srv.Hub().Len() <= before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the hub never registered the new connection (%d clients)", h.srv.Hub().Len())
		}
	}
	return &client{t: t, ws: ws}
}

func (c *client) sendRaw(frame string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) send(typ string, payload any) {
	c.t.Helper()
	b, err := json.Marshal(map[string]any{"type": typ, "payload": payload, "timestamp": time.Now().UnixMilli()})
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(string(b))
}

// next reads the next message within 10 s.
func (c *client) next() Envelope {
	c.t.Helper()
	env, err := c.read(10 * time.Second)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return env
}

func (c *client) read(d time.Duration) (Envelope, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return Envelope{}, err
	}
	var env Envelope
	return env, json.Unmarshal(b, &env)
}

// expect reads the next message and checks its type, decoding its payload into out.
func (c *client) expect(typ string, out any) Envelope {
	c.t.Helper()
	env := c.next()
	if env.Type != typ {
		c.t.Fatalf("got %s %s, want %s", env.Type, env.Payload, typ)
	}
	if out != nil {
		if err := json.Unmarshal(env.Payload, out); err != nil {
			c.t.Fatal(err)
		}
	}
	return env
}

// quiet asserts that nothing arrives within d. It closes the connection's
// read side on timeout, so call it last.
func (c *client) quiet(d time.Duration) {
	c.t.Helper()
	env, err := c.read(d)
	if err == nil {
		c.t.Fatalf("got unexpected %s %s", env.Type, env.Payload)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		c.t.Fatalf("read: %v", err)
	}
}

// actions returns the logged action types of the active session.
func (h *harness) actions(t testing.TB, sessionID string) []coach.ActionType {
	t.Helper()
	return coachtest.ActionTypes(t, h.st, store.ActionQuery{SessionID: sessionID, Limit: 1000})
}
