package mcphttp

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// directCases are tools/call bodies the direct path answers.
var directCases = []struct{ name, body string }{
	{"int id", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi","n":2}}}`},
	{"string id", `{"jsonrpc":"2.0","id":"abc-1","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`},
	{"negative id", `{"jsonrpc":"2.0","id":-3,"method":"tools/call","params":{"name":"echo"}}`},
	{"member order, spaces", " {\"params\" : {\"arguments\":{},\"name\":\"echo\"},\n\"method\":\"tools/call\",\"id\":1,\"jsonrpc\":\"2.0\"}\n"},
	{"_meta", `{"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"claudecode/toolUseId":"toolu_1","progressToken":3}},"jsonrpc":"2.0","id":3}`},
	{"escapes in arguments", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\u00e9\u2028\"\\\n\t<&>\ud83d\ude00 é"}}}`},
	{"tool error", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"fail","arguments":{}}}`},
	{"protocol error", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"protocol","arguments":{}}}`},
	{"plain error", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"plain","arguments":{}}}`},
	{"empty structured", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"empty","arguments":{}}}`},
	{"nil result", `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"nilres","arguments":{}}}`},
	{"rich result", `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"rich","arguments":{}}}`},
	{"bad arguments for the tool", `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"echo","arguments":{"n":"x"}}}`},
}

// sdkCases are bodies the SDK answers, whatever the handler.
var sdkCases = []struct{ name, body string }{
	{"unknown tool", `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"nope","arguments":{}}}`},
	{"tools/list", `{"jsonrpc":"2.0","id":21,"method":"tools/list"}`},
	{"ping", `{"jsonrpc":"2.0","id":22,"method":"ping"}`},
	{"notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`},
	{"malformed", `{"jsonrpc":"2.0","id":23,"method":"tools/call","params":{"name":"echo"`},
	{"batch", `[{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{"name":"echo"}}]`},
	{"duplicate member", `{"jsonrpc":"2.0","id":25,"id":26,"method":"tools/call","params":{"name":"echo"}}`},
	{"extra params member", `{"jsonrpc":"2.0","id":27,"method":"tools/call","params":{"name":"echo","x":1}}`},
	{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"echo"}}`},
	{"escaped name", `{"jsonrpc":"2.0","id":28,"method":"tools/call","params":{"name":"ech\u006f"}}`},
	{"array arguments", `{"jsonrpc":"2.0","id":29,"method":"tools/call","params":{"name":"echo","arguments":[1]}}`},
	{"new-protocol _meta", `{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
	{"escaped new-protocol _meta key", `{"jsonrpc":"2.0","id":32,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28"}}}`},
	{"no jsonrpc", `{"id":31,"method":"tools/call","params":{"name":"echo"}}`},
}

// TestDirectMatchesSDK sends the same bodies to a handler with the direct
// path and to one without, and compares the answers: status, content
// type and JSON, and which path answered.
func TestDirectMatchesSDK(t *testing.T) {
	direct, sdk := newTestServer(t, true, 0), newTestServer(t, false, 0)
	dsid, ssid := direct.open(t), sdk.open(t)
	check := func(t *testing.T, body string, wantDirect bool) {
		before := direct.directN.Load()
		got, _ := direct.post(t, dsid, body)
		want, _ := sdk.post(t, ssid, body)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("answer (-sdk +direct):\n%s", diff)
		}
		if took := direct.directN.Load() > before; took != wantDirect && strings.Contains(body, `"name":"echo"`) {
			t.Errorf("direct path taken = %v, want %v", took, wantDirect)
		}
	}
	for _, c := range directCases {
		t.Run(c.name, func(t *testing.T) {
			before := direct.directN.Load()
			check(t, c.body, true)
			if direct.directN.Load() == before {
				t.Error("the direct path did not answer")
			}
		})
	}
	if n := direct.sdkN.Load(); n != 0 {
		t.Errorf("the SDK ran %d of the direct cases' calls, want 0", n)
	}
	for _, c := range sdkCases {
		t.Run(c.name, func(t *testing.T) { check(t, c.body, false) })
	}
}

// Requests that are not the common case in their headers go to the SDK.
func TestUnusualHeadersGoToSDK(t *testing.T) {
	ts := newTestServer(t, true, 0)
	sid := ts.open(t)
	body := directCases[0].body
	for _, h := range [][]string{
		{"Mcp-Protocol-Version", "2026-07-28"},
		{"Mcp-Protocol-Version", "1999-01-01"},
		{"Content-Type", "text/plain"},
		{"Accept", "application/json"},
		{"Last-Event-ID", "x"},
		{"Mcp-Method", "tools/call"},
		{"Mcp-Param-Text", "hi"},
		{"Host", "evil.example"},
	} {
		t.Run(strings.Join(h, " "), func(t *testing.T) {
			before := ts.directN.Load()
			if h[0] == "Host" {
				ts.postHost(t, sid, body, h[1])
			} else {
				ts.post(t, sid, body, h...)
			}
			if ts.directN.Load() != before {
				t.Error("answered directly")
			}
		})
	}
}

// A session nobody calls is closed after the timeout, and forgotten; a
// session whose client keeps calling directly lives on.
func TestSessionExpiry(t *testing.T) {
	const timeout = 2 * time.Second
	ts := newTestServer(t, true, timeout)
	quiet, busy := ts.open(t), ts.open(t)
	for ts.hasSession(quiet) {
		if rep, _ := ts.post(t, busy, directCases[0].body); rep.Status != http.StatusOK {
			t.Fatalf("busy session: %+v", rep)
		}
		time.Sleep(50 * time.Millisecond) // the busy client's pace, not a synchronisation
	}
	if !ts.hasSession(busy) {
		t.Fatal("the busy session expired with the quiet one")
	}
	waitFor(t, "the handler to forget the quiet session", func() bool { return ts.h.sessions.get(quiet) == nil })
	if rep, _ := ts.post(t, quiet, directCases[0].body); rep.Status != http.StatusNotFound {
		t.Errorf("expired session answered %+v, want 404", rep)
	}
}

// A call in progress keeps its session alive past the timeout.
func TestSessionBusyDoesNotExpire(t *testing.T) {
	const timeout = 200 * time.Millisecond
	ts := newTestServer(t, true, timeout)
	sid := ts.open(t)
	done := make(chan reply)
	go func() {
		rep, _ := ts.post(t, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`)
		done <- rep
	}()
	<-ts.started
	time.Sleep(3 * timeout) // longer than the timeout, while the call runs: what is tested is that nothing happens
	if !ts.hasSession(sid) {
		t.Fatal("a session with a call in progress expired")
	}
	close(ts.block)
	if rep := <-done; rep.Status != http.StatusOK {
		t.Fatalf("blocked call: %+v", rep)
	}
	waitFor(t, "the idle session to expire", func() bool { return !ts.hasSession(sid) })
}

// notifications/cancelled cancels the direct call it names; a second call
// with an id in progress is refused as the SDK refuses it.
func TestCancelAndDuplicate(t *testing.T) {
	ts := newTestServer(t, true, 0)
	sid := ts.open(t)
	var wg sync.WaitGroup
	var rep reply
	wg.Go(func() {
		rep, _ = ts.post(t, sid, `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"block"}}`)
	})
	<-ts.started
	dup, _ := ts.post(t, sid, `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"echo"}}`)
	want := reply{Status: http.StatusBadRequest, Type: "application/json", Body: map[string]any{"jsonrpc": "2.0", "id": "c1",
		"error": map[string]any{"code": float64(-32600), "message": "duplicate in-flight request ID c1"}}}
	if diff := cmp.Diff(want, dup); diff != "" {
		t.Errorf("duplicate id (-want +got):\n%s", diff)
	}
	if n, _ := ts.post(t, sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1"}}`); n.Status != http.StatusAccepted {
		t.Errorf("notification: %+v", n)
	}
	wg.Wait()
	res, _ := rep.Body.(map[string]any)["result"].(map[string]any)
	if got := res["content"].([]any)[0].(map[string]any)["text"]; got != "cancelled" {
		t.Errorf("blocked call answered %v, want its context cancelled", rep.Body)
	}
}

// A body over the limit is refused with 413 by the SDK, which reads it
// whole; an unknown session is 404; after DELETE the session is gone.
func TestLimitsAndSessionEnd(t *testing.T) {
	ts := newTestServer(t, true, 0)
	sid := ts.open(t)
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` +
		strings.Repeat("x", 1<<16) + `"}}}`
	if rep, _ := ts.post(t, sid, big); rep.Status != http.StatusRequestEntityTooLarge || rep.Body != "request body exceeds 65536 bytes" {
		t.Errorf("big body: %+v", rep)
	}
	if rep, _ := ts.post(t, "no-such-session", directCases[0].body); rep.Status != http.StatusNotFound {
		t.Errorf("unknown session: %+v", rep)
	}
	ts.delete(t, sid)
	waitFor(t, "the handler to forget the deleted session", func() bool { return ts.h.sessions.get(sid) == nil })
	if rep, _ := ts.post(t, sid, directCases[0].body); rep.Status != http.StatusNotFound {
		t.Errorf("deleted session: %+v", rep)
	}
}
