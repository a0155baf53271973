package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestReadAnswer(t *testing.T) {
	const body = `{"jsonrpc":"2.0","id":7,"result":{}}`
	for _, tc := range []struct {
		name, raw string
		status    int
		body      string
		ctype     string
		close     bool
		wantErr   string // part of the error's text; "" for none
	}{
		{name: "length", raw: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n" + body,
			status: 200, body: body, ctype: "application/json"},
		{name: "no reason, bare LF", raw: "HTTP/1.1 200\nContent-Length: 2\ncontent-type:  text/event-stream \n\nok",
			status: 200, body: "ok", ctype: "text/event-stream"},
		{name: "chunked", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n3;ext=1\r\nefg\r\n0\r\nX-Trailer: 1\r\n\r\n",
			status: 200, body: "abcdefg"},
		{name: "connection close", raw: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", status: 200, close: true},
		{name: "HTTP/1.0 closes", raw: "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", status: 200, close: true},
		{name: "202 empty", raw: "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n", status: 202},
		{name: "204 no body", raw: "HTTP/1.1 204 No Content\r\n\r\n", status: 204},
		{name: "error status keeps body", raw: "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nno sessio", status: 404, body: "no sessio"},
		{name: "no framing", raw: "HTTP/1.1 200 OK\r\n\r\nrest", wantErr: "without Content-Length"},
		{name: "bad status", raw: "HTTP/2 200 OK\r\n\r\n", wantErr: "bad status line"},
		{name: "status not a number", raw: "HTTP/1.1 2x0 OK\r\n\r\n", wantErr: "bad status line"},
		{name: "signed length", raw: "HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok", wantErr: "bad Content-Length"},
		{name: "huge length", raw: "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n", wantErr: "bad Content-Length"},
		{name: "gzip", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", wantErr: "Transfer-Encoding"},
		{name: "header without colon", raw: "HTTP/1.1 200 OK\r\nnope\r\n\r\n", wantErr: "bad header line"},
		{name: "bad chunk size", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", wantErr: "bad chunk size"},
		{name: "chunk without CRLF", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n0\r\n\r\n", wantErr: "without its CRLF"},
		// Chunked framing net/http refuses is refused (FuzzReadAnswer).
		{name: "chunk-size line with bare LF", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\n\r\n", wantErr: "bad chunk-size line"},
		{name: "CR inside a chunk-size line", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r;x\r\nab\r\n0\r\n\r\n", wantErr: "bad chunk-size line"},
		{name: "chunk size of 17 digits", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000002\r\nab\r\n0\r\n\r\n", wantErr: "bad chunk size"},
		{name: "space before a chunk size", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n 2\r\nab\r\n0\r\n\r\n", wantErr: "bad chunk size"},
		{name: "bare LF after chunk data", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\n0\r\n\r\n", wantErr: "without its CRLF"},
		{name: "trailers without CRLFCRLF", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\n\n", wantErr: "final CRLF"},
		{name: "short body", raw: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", wantErr: "EOF"},
		{name: "cut in headers", raw: "HTTP/1.1 200 OK\r\nContent-Le", wantErr: "EOF"},
		{name: "too many headers", raw: "HTTP/1.1 200 OK\r\n" + strings.Repeat("X: y\r\n", maxHeaderLines+1) + "\r\n", wantErr: "header lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a answer
			err := readAnswer(bufio.NewReader(strings.NewReader(tc.raw)), &a)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error: got %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.status != tc.status || string(a.body) != tc.body || string(a.ctype) != tc.ctype || a.close != tc.close {
				t.Errorf("got status %d, body %q, type %q, close %v; want %d, %q, %q, %v",
					a.status, a.body, a.ctype, a.close, tc.status, tc.body, tc.ctype, tc.close)
			}
		})
	}
}

// Answers read back to back from one connection: the reader stops at each
// answer's end, and the buffers are reused.
func TestReadAnswerKeepAlive(t *testing.T) {
	raw := "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none" +
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nthree"
	br := bufio.NewReader(strings.NewReader(raw))
	var a answer
	for _, want := range []string{"one", "two", "three"} {
		if err := readAnswer(br, &a); err != nil || string(a.body) != want {
			t.Fatalf("got %q, %v, want %q", a.body, err, want)
		}
	}
	if err := readAnswer(br, &a); err == nil {
		t.Error("read past the last answer: want an error")
	}
}

// Whatever readAnswer accepts, net/http's response reader reads with the
// same status, content type and body: the raw client reads answers as the
// net/http client it replaces did.
func FuzzReadAnswer(f *testing.F) {
	f.Add("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
	f.Add("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n")
	f.Add("HTTP/1.0 404 Not Found\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx")
	f.Add("HTTP/1.1 204 No Content\r\n\r\n")
	f.Add("HTTP/1.1 200\nContent-Length: 0\n\n")
	f.Fuzz(func(t *testing.T, raw string) {
		var a answer
		if err := readAnswer(bufio.NewReader(strings.NewReader(raw)), &a); err != nil {
			return
		}
		resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), nil)
		if err != nil {
			t.Fatalf("readAnswer accepted what net/http refuses (%v): %q", err, raw)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("readAnswer accepted a body net/http cannot read (%v): %q", err, raw)
		}
		if resp.StatusCode != a.status || !bytes.Equal(body, a.body) {
			t.Errorf("got %d %q, net/http %d %q for %q", a.status, a.body, resp.StatusCode, body, raw)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "" && strings.TrimSpace(ct) != string(a.ctype) {
			t.Errorf("content type %q, net/http %q for %q", a.ctype, ct, raw)
		}
	})
}

// The request a raw caller sends is what net/http's server reads as the
// session's tools/call POST.
func TestAppendCallRequest(t *testing.T) {
	s := &session{id: "sid-1", version: "2025-06-18", call: []byte(`,"method":"tools/call","params":{"name":"t"}}`)}
	c, err := newRawCaller(s, "http://127.0.0.1:3000/mcp?x=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{7, 12345} {
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(s.appendCallRequest(nil, c.head, id))))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(req.Body)
		if want := string(s.callBody(id)); string(body) != want {
			t.Errorf("body %s, want %s", body, want)
		}
		for k, want := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"Mcp-Session-Id": "sid-1", "Mcp-Protocol-Version": "2025-06-18"} {
			if got := req.Header.Get(k); got != want {
				t.Errorf("%s: got %q, want %q", k, got, want)
			}
		}
		if req.Method != http.MethodPost || req.Host != "127.0.0.1:3000" || req.RequestURI != "/mcp?x=1" {
			t.Errorf("got %s %s Host %s", req.Method, req.RequestURI, req.Host)
		}
	}
	if _, err := newRawCaller(&session{id: "a\r\nX: y", version: "v"}, "http://127.0.0.1/mcp"); err == nil {
		t.Error("a session id with CRLF: want an error")
	}
}

// scriptServer is an MCP endpoint whose tools/call answers are written by
// answer(n, id) for the n-th call (from 0); initialize and notifications
// are answered as sseServer answers them, in JSON.
func scriptServer(t *testing.T, answer func(w http.ResponseWriter, n int, id string)) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method == http.MethodDelete || json.NewDecoder(r.Body).Decode(&msg) != nil {
			return
		}
		switch {
		case msg.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		case msg.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", "s1")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"%s"}}`, msg.ID, protocolVersion)
		default:
			mu.Lock()
			k := n
			n++
			mu.Unlock()
			answer(w, k, string(msg.ID))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// bufferAnswer writes a paige_get_buffer answer carrying content for id.
func bufferAnswer(w http.ResponseWriter, id, content string) {
	w.Header().Set("Content-Type", "application/json")
	entry, _ := json.Marshal(map[string]any{"path": "p", "content": content})
	text, _ := json.Marshal(string(entry))
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}],"structuredContent":%s}}`, id, text, entry)
}

// rawSession connects to srv and returns a raw caller of the session.
func rawSession(t *testing.T, srv *httptest.Server, buffer string) *rawCaller {
	t.Helper()
	s, err := connect(context.Background(), srv.Client(), srv.URL, "paige_get_buffer", map[string]string{"path": "p"})
	if err != nil {
		t.Fatal(err)
	}
	s.wantStructured, s.wantContent = buffer != "", buffer
	c, err := newRawCaller(s, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	return c
}

// Every wrong answer is an error, whether or not it looks like the
// reference answer the cheap comparison uses, and right answers after it
// still pass.
func TestRawCallerCountsWrongAnswers(t *testing.T) {
	const buf = "export const x = 1;\n"
	script := []struct {
		name    string
		answer  func(w http.ResponseWriter, id string)
		wantErr string // "" for a right answer
	}{
		{"first, checked in full", func(w http.ResponseWriter, id string) { bufferAnswer(w, id, buf) }, ""},
		{"same bytes", func(w http.ResponseWriter, id string) { bufferAnswer(w, id, buf) }, ""},
		{"wrong id", func(w http.ResponseWriter, id string) { bufferAnswer(w, "1"+id, buf) }, "want"},
		{"other buffer", func(w http.ResponseWriter, id string) { bufferAnswer(w, id, "export const x = 2;\n") }, "buffer content"},
		{"buffer lost", func(w http.ResponseWriter, id string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"null"}]}}`, id)
		}, errNoBuffer.Error()},
		{"tool error", func(w http.ResponseWriter, id string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"no"}],"isError":true}}`, id)
		}, "tool error"},
		{"rpc error", func(w http.ResponseWriter, id string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"boom"}}`, id)
		}, "JSON-RPC error"},
		{"HTTP 500", func(w http.ResponseWriter, id string) { http.Error(w, "broken", http.StatusInternalServerError) }, "HTTP 500"},
		{"right again", func(w http.ResponseWriter, id string) { bufferAnswer(w, id, buf) }, ""},
		{"same bytes, closing", func(w http.ResponseWriter, id string) {
			w.Header().Set("Connection", "close")
			bufferAnswer(w, id, buf)
		}, ""},
		{"after a new connection", func(w http.ResponseWriter, id string) { bufferAnswer(w, id, buf) }, ""},
	}
	srv := scriptServer(t, func(w http.ResponseWriter, n int, id string) { script[n].answer(w, id) })
	c := rawSession(t, srv, buf)
	for _, step := range script {
		err := c.callTool(context.Background())
		if step.wantErr == "" && err != nil || step.wantErr != "" && (err == nil || !strings.Contains(err.Error(), step.wantErr)) {
			t.Errorf("%s: got %v, want %q", step.name, err, step.wantErr)
		}
	}
	// Decoded: the first answer and the five wrong ones with a body; the
	// right answers after them equal the first.
	if c.check.decoded != 6 {
		t.Errorf("decoded %d answers, want 6", c.check.decoded)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.callTool(ctx); err != context.Canceled {
		t.Errorf("cancelled: got %v, want %v", err, context.Canceled)
	}
}

// Answers equal to the reference but for the id are not decoded again;
// an answer whose id cannot be told apart gives no reference, so every
// answer is decoded.
func TestAnswerCheck(t *testing.T) {
	s := &session{}
	answer := func(id int64, result string) []byte {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":%s}`, id, result)
	}
	const ctype = "application/json"
	for _, tc := range []struct {
		name        string
		result      string
		wantDecoded int
	}{
		{"repeating", okResult, 1},
		{"id also in the result", `{"content":[{"type":"text","text":"x"}],"structuredContent":{"id":%d}}`, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a answerCheck
			for id := int64(8); id < 12; id++ {
				result := tc.result
				if strings.Contains(result, "%d") {
					result = fmt.Sprintf(result, id)
				}
				if err := a.check(s, []byte(ctype), answer(id, result), id); err != nil {
					t.Fatalf("id %d: %v", id, err)
				}
			}
			if a.decoded != tc.wantDecoded {
				t.Errorf("decoded %d answers, want %d", a.decoded, tc.wantDecoded)
			}
			// The reference's bytes under another call's id are wrong.
			if err := a.check(s, []byte(ctype), answer(11, okResult), 12); err == nil {
				t.Error("the answer to id 11 for call 12: want an error")
			}
		})
	}
}

// A run counts each wrong answer as an error, not as a call: here every
// other call after the warm-ups is answered with another call's id.
func TestRunCountsWrongAnswers(t *testing.T) {
	const workers = 2
	srv := scriptServer(t, func(w http.ResponseWriter, n int, id string) {
		if n >= workers && n%2 == 1 {
			id = "9" + id
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, okResult)
	})
	cfg := config{URL: srv.URL, Mode: "open", Rate: 400, Duration: 250 * time.Millisecond, Workers: workers,
		Tool: "t", Path: "p", Bound: time.Minute}
	res, err := run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls != 50 || res.Errors != 50 || res.FirstErr == nil || !strings.Contains(res.FirstErr.Error(), "want") {
		t.Errorf("got %d calls, %d errors (%v), want 50 and 50 (a wrong id)", res.Calls, res.Errors, res.FirstErr)
	}
}
