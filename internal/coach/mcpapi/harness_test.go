package mcpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/paige-dev/paige/internal/coach/coachtest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/workspace"
)

// sent is one recorded broadcast.
type sent struct {
	Type    string
	Payload json.RawMessage
}

// recorder is a Broadcaster that keeps what was sent.
type recorder struct {
	mu   sync.Mutex
	msgs []sent
}

func (r *recorder) Broadcast(typ string, payload any) {
	b, _ := json.Marshal(payload)
	r.mu.Lock()
	r.msgs = append(r.msgs, sent{typ, b})
	r.mu.Unlock()
}

func (r *recorder) take() []sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.msgs
	r.msgs = nil
	return out
}

type harness struct {
	srv     *Server
	handler http.Handler // what cs is connected through
	url     string       // where handler serves, over loopback
	cs      *mcp.ClientSession
	st      *store.Store
	ws      *workspace.Workspace
	sess    *session.Service
	hub     *recorder
	project string
}

// newHarness connects an MCP client to a server over a temp project; opts
// adjust the server's Options (for example to add Extra tools).
func newHarness(t testing.TB, opts ...func(*Options)) *harness {
	t.Helper()
	ctx := context.Background()
	env := coachtest.New(t, map[string]string{
		"src/auth.ts":           "export function login() {\n  return true;\n}\n",
		"src/handlers/oauth.ts": "export const oauth = 1;\n",
		"README.md":             "# demo\n",
	})
	project, st, ws, al := env.Project, env.Store, env.WS, env.Actions
	sess, err := session.New(ctx, st, al, &session.Options{ProjectDir: project, Normalize: ws.Guard().Normalize,
		Batch: st, Bus: al.Bus()}) // the batched writer, as the server runs it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close(context.Background()) })
	hub := &recorder{}
	o := Options{Files: ws, Store: st, Session: sess, Hub: hub}
	for _, f := range opts {
		f(&o)
	}
	srv := New(o)
	// Over HTTP, as Claude Code connects, through the SDK's handler.
	handler := Handler(srv, nil, 0)
	hs := httptest.NewServer(handler)
	t.Cleanup(hs.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &harness{srv: srv, handler: handler, url: hs.URL, cs: cs, st: st, ws: ws, sess: sess, hub: hub, project: project}
}

// call calls a tool and decodes its structured result into out (if non-nil).
// It returns the tool error text, "" on success.
func (h *harness) call(t testing.TB, name string, args any, out any) string {
	t.Helper()
	res, err := h.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	if res.IsError {
		if len(res.Content) == 0 {
			return "error without content"
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if out != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
	return ""
}

// takeOne decodes into v the one broadcast made since the last take and
// fails t unless there was exactly one, of type typ.
func (h *harness) takeOne(t testing.TB, typ string, v any) {
	t.Helper()
	msgs := h.hub.take()
	if len(msgs) != 1 || msgs[0].Type != typ {
		t.Fatalf("broadcasts = %+v, want one %s", msgs, typ)
	}
	if err := json.Unmarshal(msgs[0].Payload, v); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) start(t testing.TB) coach.Session {
	t.Helper()
	n := 7
	s, err := h.sess.Start(context.Background(), session.StartInput{IssueNumber: &n, IssueTitle: "Fix OAuth race"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// plan creates a plan with phases 1 and 2 for sess.
func (h *harness) plan(t testing.TB, sess coach.Session) (coach.Plan, []coach.Phase) {
	t.Helper()
	ctx := context.Background()
	p, err := h.st.CreatePlan(ctx, sess.ID, "1. read\n2. fix")
	if err != nil {
		t.Fatal(err)
	}
	var phases []coach.Phase
	for i, title := range []string{"Read the auth flow", "Fix the race"} {
		ph, err := h.st.CreatePhase(ctx, coach.Phase{PlanID: p.ID, Number: i + 1, Title: title, Description: "step",
			Status: coach.PhasePending, HintLevel: coach.HintFile})
		if err != nil {
			t.Fatal(err)
		}
		phases = append(phases, ph)
	}
	return p, phases
}

func (h *harness) actions(t testing.TB, sessionID string) []coach.ActionType {
	t.Helper()
	h.sess.Flush(context.Background())
	return coachtest.ActionTypes(t, h.st, store.ActionQuery{SessionID: sessionID})
}
