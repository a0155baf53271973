package mcphttp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testServer is an MCP server with test tools, behind a Handler whose
// direct path can be turned off (direct false: every call goes to the SDK).
type testServer struct {
	h              *Handler
	srv            *mcp.Server
	sdkN, directN  atomic.Int64 // calls answered by each path
	block, started chan struct{}
}

// echoOut is the structured output of the echo tool.
type echoOut struct {
	Text string `json:"text"`
	N    int    `json:"n"`
}

func newTestServer(t testing.TB, direct bool, timeout time.Duration) *testServer {
	t.Helper()
	ts := &testServer{block: make(chan struct{}), started: make(chan struct{}, 16)}
	ts.srv = mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ServerOptions{Instructions: "test"})
	tools := map[string]mcp.ToolHandler{}
	add := func(tool *mcp.Tool, h mcp.ToolHandler) {
		ts.srv.AddTool(tool, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ts.sdkN.Add(1)
			return h(ctx, r)
		})
		tools[tool.Name] = func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ts.directN.Add(1)
			return h(ctx, r)
		}
	}
	obj := &mcp.Tool{InputSchema: map[string]any{"type": "object"}}
	withName := func(name string) *mcp.Tool { t := *obj; t.Name = name; return &t }
	add(withName("echo"), echoTool)
	add(withName("fail"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var res mcp.CallToolResult
		res.SetError(errors.New("it broke: \"quoted\" <tag> \u2028"))
		return &res, nil
	})
	add(withName("protocol"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad params"}
	})
	add(withName("plain"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("plain failure")
	})
	add(withName("empty"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{StructuredContent: map[string]any{}}, nil
	})
	add(withName("nilres"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
	add(withName("rich"), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Meta: mcp.Meta{"k": "v"}, Content: []mcp.Content{&mcp.TextContent{Text: "a"},
			&mcp.ImageContent{Data: []byte{1, 2}, MIMEType: "image/png"}}, StructuredContent: map[string]any{"x": 1.5}}, nil
	})
	add(withName("block"), func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ts.started <- struct{}{}
		select {
		case <-ctx.Done():
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "cancelled"}}}, nil
		case <-ts.block:
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil
		}
	})
	lookup := ToolLookup(func(name string) (mcp.ToolHandler, bool) { h, ok := tools[name]; return h, ok })
	if !direct {
		lookup = nil
	}
	ts.h = New(ts.srv, lookup, &Options{SessionTimeout: timeout, MaxBodyBytes: 1 << 16})
	return ts
}

// echoTool answers its arguments' text and n, as text and structured content.
func echoTool(_ context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in echoOut
	if len(r.Params.Arguments) > 0 {
		if err := json.Unmarshal(r.Params.Arguments, &in); err != nil {
			return nil, err
		}
	}
	b, _ := json.Marshal(in)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b)}, nil
}

// reply is one HTTP answer.
type reply struct {
	Status int
	Type   string
	Body   any // decoded JSON, or the text when it is not JSON
}

// post sends body to the handler in-process, as a client of session sid
// ("" for none) on a loopback Host, with the headers Claude Code sends
// plus extra; it returns the answer and the session id it carried.
func (ts *testServer) post(t testing.TB, sid, body string, extra ...string) (reply, string) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	r.Host = "127.0.0.1:3000"
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		r.Header.Set(sessionIDHeader, sid)
		r.Header.Set(protocolVersionHeader, "2025-11-25")
	}
	for i := 0; i+1 < len(extra); i += 2 {
		r.Header.Set(extra[i], extra[i+1])
	}
	w := httptest.NewRecorder()
	ts.h.ServeHTTP(w, r)
	return decodeReply(w), w.Header().Get(sessionIDHeader)
}

func decodeReply(w *httptest.ResponseRecorder) reply {
	rep := reply{Status: w.Code, Type: w.Header().Get("Content-Type")}
	var v any
	if json.Unmarshal(w.Body.Bytes(), &v) == nil {
		rep.Body = v
	} else {
		rep.Body = strings.TrimSpace(w.Body.String())
	}
	return rep
}

// open initializes a session and returns its id.
func (ts *testServer) open(t testing.TB) string {
	t.Helper()
	rep, sid := ts.post(t, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if rep.Status != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %+v", rep)
	}
	if rep, _ := ts.post(t, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); rep.Status != http.StatusAccepted {
		t.Fatalf("initialized: %+v", rep)
	}
	return sid
}

// waitFor polls cond until it holds or a generous deadline passes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition with a deadline
	}
}

// hasSession reports whether the SDK still has session id.
func (ts *testServer) hasSession(id string) bool {
	for ss := range ts.srv.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// postHost posts body with the Host header host.
func (ts *testServer) postHost(t testing.TB, sid, body, host string) reply {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	r.Host = host
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set(sessionIDHeader, sid)
	w := httptest.NewRecorder()
	ts.h.ServeHTTP(w, r)
	return decodeReply(w)
}

// delete ends session sid.
func (ts *testServer) delete(t testing.TB, sid string) {
	t.Helper()
	r := httptest.NewRequest(http.MethodDelete, "/mcp", nil)
	r.Host = "127.0.0.1:3000"
	r.Header.Set(sessionIDHeader, sid)
	w := httptest.NewRecorder()
	ts.h.ServeHTTP(w, r)
	if w.Code != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", w.Code, w.Body)
	}
}
