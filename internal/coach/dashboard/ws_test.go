package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/workspace"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
)

// server is a real wsapi server with the dashboard handlers plugged in.
type server struct {
	st    *store.Store
	clock *clock
	sess  *session.Service
	svc   *Service
	llm   *llmtest.Server
	url   string
}

type serverOpts struct {
	gh     *GH
	memory memory.Store
}

func newServer(t testing.TB, o serverOpts) *server {
	t.Helper()
	ctx := context.Background()
	st, c := openStore(t)
	log := slog.New(slog.NewTextHandler(tWriter{t}, nil))
	project := t.TempDir()
	ws, err := workspace.New(project, nil)
	if err != nil {
		t.Fatal(err)
	}
	al := actionlog.New(st, nil)
	t.Cleanup(func() { al.Close(ctx) })
	sess, err := session.New(ctx, st, al, &session.Options{ProjectDir: project, Normalize: ws.Guard().Normalize})
	if err != nil {
		t.Fatal(err)
	}
	fake := llmtest.NewServer(t)
	client := llm.New(llm.Options{APIKey: "test", BaseURL: fake.URL(), Log: al, Retry: llm.RetryPolicy{BaseDelay: time.Millisecond}})
	if o.gh == nil {
		o.gh, _ = fakeGH(t, ghPrints(`[]`))
	}
	svc := New(Options{Store: st, LLM: client, Session: sess, Memory: o.memory, GH: o.gh, ProjectDir: project, Log: log, Now: c.Now})
	srv := wsapi.New(wsapi.Options{Log: log, Files: wsapi.WorkspaceFiles{WS: ws, Buffers: al}, Session: sess,
		Extensions: wsapi.Extensions{DashboardRequest: svc.RequestHandler(), RefreshIssues: svc.RefreshHandler(),
			RefreshMaterials: svc.RefreshMaterialsHandler()}})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { svc.Close(); srv.Hub().Close(); hs.Close() })
	return &server{st: st, clock: c, sess: sess, svc: svc, llm: fake, url: "ws" + strings.TrimPrefix(hs.URL, "http")}
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

type client struct {
	t  testing.TB
	ws *websocket.Conn
}

func (s *server) dial(t testing.TB) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, s.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(64 << 20)
	t.Cleanup(func() { ws.CloseNow() })
	return &client{t: t, ws: ws}
}

func (c *client) send(typ string, payload any) {
	c.t.Helper()
	b, _ := json.Marshal(map[string]any{"type": typ, "payload": payload, "id": "req-1"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) read(d time.Duration) (wsapi.Envelope, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return wsapi.Envelope{}, err
	}
	var env wsapi.Envelope
	return env, json.Unmarshal(b, &env)
}

// expect reads the next message, checks its type and decodes its payload.
func (c *client) expect(typ string, out any) {
	c.t.Helper()
	env, err := c.read(10 * time.Second)
	if err != nil {
		c.t.Fatalf("waiting for %s: %v", typ, err)
	}
	if env.Type != typ {
		c.t.Fatalf("got %s %s, want %s", env.Type, env.Payload, typ)
	}
	if out != nil {
		if err := json.Unmarshal(env.Payload, out); err != nil {
			c.t.Fatal(err)
		}
	}
}

// collect reads n messages and returns them by type (each type once).
func (c *client) collect(n int) map[string]json.RawMessage {
	c.t.Helper()
	out := map[string]json.RawMessage{}
	for range n {
		env, err := c.read(10 * time.Second)
		if err != nil {
			c.t.Fatalf("after %v: %v", keys(out), err)
		}
		if _, dup := out[env.Type]; dup {
			c.t.Fatalf("%s received twice", env.Type)
		}
		out[env.Type] = env.Payload
	}
	return out
}

// quiet asserts nothing arrives within d; call it last.
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

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func decode[T any](t testing.TB, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
