package mcpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
)

// rawCall is one tools/call sent over its own HTTP/1.1 connection by a
// client that half-closes it (CloseWrite) right after sending the request
// when halfCloseFirst, or right after reading the answer otherwise. It
// returns the JSON-RPC answer, or nil when the server sent none.
func rawCall(t *testing.T, h *harness, id int, halfCloseFirst bool) json.RawMessage {
	t.Helper()
	u, err := url.Parse(h.url)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tc := c.(*net.TCPConn)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"paige_get_buffer","arguments":{"path":"src/auth.ts"}}}`, id)
	req := "POST / HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + h.cs.ID() + "\r\n" +
		"Mcp-Protocol-Version: " + h.cs.InitializeResult().ProtocolVersion + "\r\n" +
		fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	if halfCloseFirst {
		if err := tc.CloseWrite(); err != nil {
			t.Fatal(err)
		}
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return nil // no answer: the call is not acknowledged
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if !halfCloseFirst {
		_ = tc.CloseWrite()
	}
	if err != nil || res.StatusCode != http.StatusOK || len(strings.TrimSpace(string(b))) == 0 {
		return nil
	}
	return b
}

// Issue 29: a client that half-closes its connection, before or after
// reading the answer, never makes an acknowledged call go unlogged: every
// answer it gets is the tool's own (not "could not be recorded"), the
// call's mcp_tool_call row is committed when the answer arrives, and every
// call sent is logged in the end.
func TestHalfClosedConnectionKeepsCallLogged(t *testing.T) {
	for _, first := range []bool{true, false} {
		t.Run(fmt.Sprintf("halfCloseBeforeAnswer=%v", first), func(t *testing.T) {
			h := newHarness(t)
			sess := h.start(t)
			ctx := context.Background()
			const n = 20
			acked := 0
			for i := range n {
				ans := rawCall(t, h, 100+i, first)
				if ans == nil {
					continue
				}
				var msg struct {
					Result *struct {
						IsError bool `json:"isError"`
					} `json:"result"`
				}
				if err := json.Unmarshal(ans, &msg); err != nil || msg.Result == nil || msg.Result.IsError {
					t.Fatalf("call %d answered %s, want the buffer", i, ans)
				}
				acked++
				rows, err := h.st.CountActions(ctx, sess.ID, coach.ActionMCPToolCall, time.Time{})
				if err != nil || rows < acked {
					t.Fatalf("after %d answers: %d mcp_tool_call rows (%v)", acked, rows, err)
				}
			}
			t.Logf("%d of %d calls answered", acked, n)
			if !first && acked != n {
				t.Errorf("%d of %d calls answered to a client that reads before closing", acked, n)
			}
			// Calls whose answer was not read may still be running: wait
			// for their rows (generously; the rows, not the time, end it).
			deadline := time.Now().Add(30 * time.Second)
			for {
				h.sess.Flush(ctx)
				rows, err := h.st.CountActions(ctx, sess.ID, coach.ActionMCPToolCall, time.Time{})
				if err != nil {
					t.Fatal(err)
				}
				if rows == n {
					break
				}
				if rows > n || time.Now().After(deadline) {
					t.Fatalf("%d mcp_tool_call rows for %d calls (%d answered)", rows, n, acked)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}
