package dashboard

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach/coachtest"

	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/testenv"
)

// server is a dashboard Service on a real store, session and fake Claude;
// its clients are recording Sinks (the WebSocket mapping is wsapi's, tested
// there).
type server struct {
	st    *store.Store
	clock *clock
	sess  *session.Service
	svc   *Service
	llm   *llmtest.Server
}

type serverOpts struct {
	gh     *GH
	memory memory.Store
}

func newServer(t testing.TB, o serverOpts) *server {
	t.Helper()
	ctx := context.Background()
	env := coachtest.New(t, nil)
	st, project, ws, al := env.Store, env.Project, env.WS, env.Actions
	c := &clock{t: now0}
	st.Now = c.Now
	log := testenv.Logger(t, slog.LevelInfo)
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
	t.Cleanup(func() { svc.Close() })
	return &server{st: st, clock: c, sess: sess, svc: svc, llm: fake}
}

// The names of the dashboard's WebSocket messages, which label what a
// client's Sink receives.
const (
	typeDashboardRequest        = "dashboard:request"
	typeDashboardRefreshIssues  = "dashboard:refresh_issues"
	typeDashboardRefreshMats    = "dashboard:refresh_materials"
	typeDashboardState          = "dashboard:state"
	typeDashboardIssues         = "dashboard:issues"
	typeDashboardIssuesError    = "dashboard:issues_error"
	typeDashboardMaterials      = "dashboard:materials"
	typeDashboardMaterialsError = "dashboard:materials_error"
)

// message is one result a client's Sink received: its message type and
// its payload as JSON.
type message struct {
	typ     string
	payload json.RawMessage
}

// client sends requests to the service and records, as a [Sink], what
// they produce, in order.
type client struct {
	t   testing.TB
	svc *Service
	got chan message
}

var _ Sink = (*client)(nil)

func (s *server) dial(t testing.TB) *client {
	return &client{t: t, svc: s.svc, got: make(chan message, 64)}
}

func (c *client) record(typ string, payload any) {
	b, err := json.Marshal(payload)
	if err != nil {
		panic(err) // a payload that does not encode is a bug in the test's subject
	}
	c.got <- message{typ, b}
}

func (c *client) State(st DashboardState)        { c.record(typeDashboardState, st) }
func (c *client) Issues(out DashboardIssues)     { c.record(typeDashboardIssues, out) }
func (c *client) Materials(m DashboardMaterials) { c.record(typeDashboardMaterials, m) }
func (c *client) IssuesError(msg string)         { c.record(typeDashboardIssuesError, errorText{msg}) }
func (c *client) MaterialsError(msg string)      { c.record(typeDashboardMaterialsError, errorText{msg}) }

// errorText is the payload of the _error messages.
type errorText struct {
	Error string `json:"error"`
}

// send makes the service call behind a dashboard message.
func (c *client) send(typ string, payload any) {
	c.t.Helper()
	switch typ {
	case typeDashboardRequest:
		var in struct {
			StatsPeriod Period `json:"statsPeriod"`
		}
		b, _ := json.Marshal(payload)
		if err := json.Unmarshal(b, &in); err != nil && string(b) != "null" {
			c.t.Fatal(err)
		}
		if err := c.svc.Load(context.Background(), in.StatsPeriod, c); err != nil {
			c.t.Fatalf("load: %v", err)
		}
	case typeDashboardRefreshIssues:
		c.svc.RefreshIssues(c)
	case typeDashboardRefreshMats:
		c.svc.RefreshMaterials(c)
	default:
		c.t.Fatalf("no dashboard message %s", typ)
	}
}

func (c *client) read(d time.Duration) (message, error) {
	select {
	case m := <-c.got:
		return m, nil
	case <-time.After(d):
		return message{}, context.DeadlineExceeded
	}
}

// expect reads the next message, checks its type and decodes its payload.
func (c *client) expect(typ string, out any) {
	c.t.Helper()
	m, err := c.read(10 * time.Second)
	if err != nil {
		c.t.Fatalf("waiting for %s: %v", typ, err)
	}
	if m.typ != typ {
		c.t.Fatalf("got %s %s, want %s", m.typ, m.payload, typ)
	}
	if out != nil {
		if err := json.Unmarshal(m.payload, out); err != nil {
			c.t.Fatal(err)
		}
	}
}

// collect reads n messages and returns them by type (each type once).
func (c *client) collect(n int) map[string]json.RawMessage {
	c.t.Helper()
	out := map[string]json.RawMessage{}
	for range n {
		m, err := c.read(10 * time.Second)
		if err != nil {
			c.t.Fatalf("after %v: %v", keys(out), err)
		}
		if _, dup := out[m.typ]; dup {
			c.t.Fatalf("%s received twice", m.typ)
		}
		out[m.typ] = m.payload
	}
	return out
}

// quiet asserts nothing arrives within d; call it last.
func (c *client) quiet(d time.Duration) {
	c.t.Helper()
	if m, err := c.read(d); err == nil {
		c.t.Fatalf("got unexpected %s %s", m.typ, m.payload)
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
