package mcpapi

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hasSession reports whether srv has a session with id.
func hasSession(srv *Server, id string) bool {
	for ss := range srv.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// An MCP session whose client stays silent is closed after the idle
// timeout and forgotten by the server; a session whose client keeps
// calling lives on.
func TestHandlerExpiresIdleSessions(t *testing.T) {
	const idle = 2 * time.Second
	const wait = 60 * time.Second
	h := newHarness(t)
	srv := httptest.NewServer(Handler(h.srv, nil, idle))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	connect := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	quiet, busy := connect(), connect()
	if !hasSession(h.srv, quiet.ID()) || !hasSession(h.srv, busy.ID()) {
		t.Fatal("sessions not open on the server")
	}
	deadline := time.Now().Add(wait)
	for hasSession(h.srv, quiet.ID()) {
		if time.Now().After(deadline) {
			t.Fatalf("idle session %s still open after %v (timeout %v)", quiet.ID(), wait, idle)
		}
		if _, err := busy.ListTools(ctx, nil); err != nil {
			t.Fatalf("active session: %v", err)
		}
		time.Sleep(50 * time.Millisecond) // the busy client's pace, not a synchronisation
	}
	if !hasSession(h.srv, busy.ID()) {
		t.Error("the active session was closed with the idle one")
	}
	if _, err := busy.ListTools(ctx, nil); err != nil {
		t.Errorf("active session after the idle one expired: %v", err)
	}
	if _, err := quiet.ListTools(ctx, nil); err == nil {
		t.Error("the expired session still answers")
	}
}
