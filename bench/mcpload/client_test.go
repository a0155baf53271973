package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const okResult = `{"content":[{"type":"text","text":"null"}]}`

func TestReadResponse(t *testing.T) {
	resp := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, id, okResult) }
	for _, tc := range []struct {
		name, ctype, body string
		want              string // result, or the error's text when wantErr
		wantErr           bool
	}{
		{"json", "application/json", resp(7), okResult, false},
		{"json charset", "application/json; charset=utf-8", resp(7), okResult, false},
		{"sse", "text/event-stream", "event: message\ndata: " + resp(7) + "\n\n", okResult, false},
		{"sse no space, id line", "text/event-stream", "id: 1\ndata:" + resp(7) + "\n\n", okResult, false},
		{"sse skips others", "text/event-stream",
			": ping\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\ndata: " + resp(6) + "\n\ndata: " + resp(7) + "\n\n",
			okResult, false},
		{"sse multi-line data", "text/event-stream", "data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":7,\"result\":{}}\n\n", "{}", false},
		{"sse last event unterminated", "text/event-stream", "data: " + resp(7), okResult, false},
		{"sse ends early", "text/event-stream", "data: " + resp(6) + "\n\n", "without the response to id 7", true},
		{"json wrong id", "application/json", resp(6), "id 6, want 7", true},
		{"rpc error", "application/json", `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad"}}`, "JSON-RPC error -32602: bad", true},
		{"no result", "application/json", `{"jsonrpc":"2.0","id":7}`, "without result", true},
		{"not 2.0", "application/json", `{"jsonrpc":"1.0","id":7,"result":{}}`, "jsonrpc", true},
		{"not json", "application/json", `<html>`, "response:", true},
		{"content type", "text/html", resp(7), "unexpected content type", true},
		{"no content type", "", resp(7), "content type", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readResponse(tc.ctype, strings.NewReader(tc.body), 7)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error: got %v, want one containing %q", err, tc.want)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("got %s, %v, want %s", got, err, tc.want)
			}
		})
	}
}

func TestCheckToolResult(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		wantErr bool
	}{
		{okResult, false},
		{`{"content":[{"type":"text","text":"{}"}],"structuredContent":{"path":"a"}}`, false},
		{`{"content":[{"type":"text","text":"bad"}],"isError":true}`, true},
		{`{"content":[]}`, true},
		{`[]`, true},
	} {
		if err := checkToolResult(json.RawMessage(tc.raw)); (err != nil) != tc.wantErr {
			t.Errorf("checkToolResult(%s): got %v, want error %v", tc.raw, err, tc.wantErr)
		}
	}
}

func TestSchedule(t *testing.T) {
	if got, want := calls(5000, 10*time.Second), 50000; got != want {
		t.Errorf("calls: got %d, want %d", got, want)
	}
	got := []time.Duration{due(0, 5000), due(1, 5000), due(16, 5000), due(4999, 5000), due(3, 3)}
	want := []time.Duration{0, 200 * time.Microsecond, 3200 * time.Microsecond, time.Second - 200*time.Microsecond, time.Second}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("due (-want +got):\n%s", d)
	}
}

func TestPercentile(t *testing.T) {
	lat := make([]time.Duration, 100)
	for i := range lat {
		lat[i] = time.Duration(i+1) * time.Millisecond
	}
	got := []time.Duration{percentile(lat, 0.5), percentile(lat, 0.99), percentile(lat, 1), percentile(nil, 0.5)}
	want := []time.Duration{50 * time.Millisecond, 99 * time.Millisecond, 100 * time.Millisecond, 0}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("percentile (-want +got):\n%s", d)
	}
}

// sseServer is a minimal MCP endpoint that answers every request as
// text/event-stream, with a notification before the response, as a
// server without JSON responses does. It checks the session headers.
func sseServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &msg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if msg.Method != "initialize" && (r.Header.Get("Mcp-Session-Id") != "s1" || r.Header.Get("Mcp-Protocol-Version") != protocolVersion) {
			http.Error(w, "session headers", http.StatusBadRequest)
			return
		}
		if msg.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := okResult
		if msg.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "s1")
			result = `{"protocolVersion":"` + protocolVersion + `","capabilities":{},"serverInfo":{"name":"x","version":"1"}}`
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n")
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", msg.ID, result)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Answers sent as text/event-stream work through the whole run.
func TestRunEventStream(t *testing.T) {
	srv := sseServer(t)
	cfg := config{URL: srv.URL, Mode: "open", Rate: 400, Duration: 250 * time.Millisecond, Workers: 4, Tool: "t", Path: "p"}
	res, err := run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls != 100 || res.Errors != 0 {
		t.Errorf("got %d calls, %d errors (%v), want 100, 0", res.Calls, res.Errors, res.FirstErr)
	}
}

// A server that does not hand out a session id fails at connect.
func TestRunNoSessionID(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"x"}}`)
	}))
	defer srv.Close()
	cfg := config{URL: srv.URL, Mode: "closed", Duration: time.Second, Workers: 1, Tool: "t"}
	if _, err := run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "Mcp-Session-Id") {
		t.Errorf("got %v, want an error about Mcp-Session-Id", err)
	}
}

func FuzzReadResponse(f *testing.F) {
	f.Add("application/json", `{"jsonrpc":"2.0","id":1,"result":{}}`)
	f.Add("text/event-stream", "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
	f.Add("text/event-stream", "data: x\n\ndata:\n\n:\n")
	f.Add("application/json", `{"id":1,"error":{"code":1}}`)
	f.Fuzz(func(t *testing.T, ctype, body string) {
		got, err := readResponse(ctype, strings.NewReader(body), 1)
		if err == nil && (len(got) == 0 || !json.Valid(got)) {
			t.Errorf("no error but result %q", got)
		}
		if errors.Is(err, errNotOurs) && ctype == "text/event-stream" {
			t.Errorf("event stream leaked errNotOurs: %v", err)
		}
	})
}

func TestReadToolResultStructured(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{`{"content":[],"structuredContent":{"path":"a"}}`, true},
		{`{"content":[{"type":"text","text":"{}"}],"structuredContent":{"path":"a"}}`, true},
		{okResult, false},
		{`{"content":[],"structuredContent":null}`, false},
		{`{"content":[{"type":"text","text":"null"}],"structuredContent":null}`, false},
	} {
		if got, err := readToolResult(json.RawMessage(tc.raw)); err == nil && got != tc.want {
			t.Errorf("readToolResult(%s): structured %v, want %v", tc.raw, got, tc.want)
		}
	}
}

// Once a buffer is seeded, only an answer carrying it is right: Paige
// answers a missing buffer with the text null and structuredContent {},
// which a check for structuredContent alone would accept.
func TestCheckResultSeeded(t *testing.T) {
	s := &session{wantStructured: true, wantContent: "x = 1\n"}
	for _, tc := range []struct {
		raw     string
		wantErr string
	}{
		{`{"content":[{"type":"text","text":"{}"}],"structuredContent":{"path":"a","content":"x = 1\n"}}`, ""},
		{`{"content":[{"type":"text","text":"null"}],"structuredContent":{}}`, "without content"},
		{`{"content":[{"type":"text","text":"{}"}],"structuredContent":{"content":"x = 2\n"}}`, "buffer content"},
		{`{"content":[{"type":"text","text":"null"}],"structuredContent":null}`, errNoBuffer.Error()},
	} {
		err := s.checkResult(json.RawMessage(tc.raw))
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("checkResult(%s): got %v, want %q", tc.raw, err, tc.wantErr)
		}
	}
}

// Seeding needs the editor WebSocket: a server without one fails the run
// before any call is measured.
func TestRunSeedNoWebSocket(t *testing.T) {
	srv := sseServer(t)
	cfg := config{URL: srv.URL, Mode: "closed", Duration: time.Second, Workers: 1, Tool: "t", Path: "p", Buffer: "x"}
	if _, err := run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "editor WebSocket") {
		t.Errorf("got %v, want an editor WebSocket error", err)
	}
}

// Once a buffer is seeded, an answer of null (the buffer was lost) is an error.
func TestCallToolWantStructured(t *testing.T) {
	srv := sseServer(t)
	s, err := connect(context.Background(), srv.Client(), srv.URL, "t", map[string]string{"path": "p"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.callTool(context.Background()); err != nil {
		t.Errorf("null answer, nothing seeded: got %v, want nil", err)
	}
	s.wantStructured = true
	if err := s.callTool(context.Background()); !errors.Is(err, errNoBuffer) {
		t.Errorf("null answer, buffer seeded: got %v, want %v", err, errNoBuffer)
	}
}
