package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// protocolVersion is the MCP revision mcpload asks for in initialize.
const protocolVersion = "2025-06-18"

// session is one MCP client session over Streamable HTTP: its own
// Mcp-Session-Id and request ids, sharing the http.Client's kept-alive
// connections. A session is used by one goroutine at a time.
type session struct {
	hc      *http.Client
	url     string
	id      string // Mcp-Session-Id from the initialize answer
	version string // negotiated protocol version
	next    int64  // next JSON-RPC request id
	call    []byte // the tools/call body without its id, see callBody
	// wantStructured makes an answer without structuredContent an error
	// (a seeded buffer must come back, not null).
	wantStructured bool
	// wantContent, when not empty, is the seeded buffer's text: an answer
	// whose structuredContent.content differs is an error.
	wantContent string
}

// rpcResponse is a JSON-RPC 2.0 response.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// connect opens a session: initialize (which must answer with an
// Mcp-Session-Id), then the notifications/initialized notification. Calls
// then ask for tool with args.
func connect(ctx context.Context, hc *http.Client, url, tool string, args any) (*session, error) {
	s := &session{hc: hc, url: url, next: 1}
	init := map[string]any{"protocolVersion": protocolVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "mcpload", "version": "1"}}
	raw, hdr, err := s.request(ctx, "initialize", init)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if s.id = hdr.Get("Mcp-Session-Id"); s.id == "" {
		return nil, errors.New("initialize: no Mcp-Session-Id in the answer")
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.ProtocolVersion == "" {
		return nil, fmt.Errorf("initialize: result without protocolVersion: %.200s", raw)
	}
	s.version = res.ProtocolVersion
	if err := s.notify(ctx, "notifications/initialized"); err != nil {
		return nil, err
	}
	params, err := json.Marshal(map[string]any{"name": tool, "arguments": args})
	if err != nil {
		return nil, err
	}
	s.call = append([]byte(`,"method":"tools/call","params":`), params...)
	s.call = append(s.call, '}')
	return s, nil
}

// callPrefix starts every tools/call body; the id follows, then s.call.
const callPrefix = `{"jsonrpc":"2.0","id":`

// callBody is the next tools/call request: only the id changes per call.
func (s *session) callBody(id int64) []byte {
	b := strconv.AppendInt([]byte(callPrefix), id, 10)
	return append(b, s.call...)
}

// callTool makes one tools/call through net/http. An HTTP, JSON-RPC or
// tool error (a result with isError), or a result [session.checkResult]
// refuses, is an error. The measured calls go through [rawCaller].
func (s *session) callTool(ctx context.Context) error {
	raw, err := s.callResult(ctx)
	if err != nil {
		return err
	}
	return s.checkResult(raw)
}

// callResult makes one tools/call and returns its result.
func (s *session) callResult(ctx context.Context) (json.RawMessage, error) {
	id := s.next
	s.next++
	raw, _, err := s.post(ctx, s.callBody(id), id)
	return raw, err
}

// checkToolResult accepts a CallToolResult with content and without isError.
func checkToolResult(raw json.RawMessage) error {
	_, err := readToolResult(raw)
	return err
}

// readToolResult checks a CallToolResult as [checkToolResult] does and
// reports, from the same decoding, whether it carries structuredContent
// that is not null: one pass over each answer, so
// the load tool's own CPU per call stays small beside the server's.
func readToolResult(raw json.RawMessage) (structured bool, err error) {
	var res struct {
		Content           []struct{}  `json:"content"`
		IsError           bool        `json:"isError"`
		StructuredContent presentJSON `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return false, fmt.Errorf("tools/call result: %w", err)
	}
	if res.IsError {
		return false, fmt.Errorf("tools/call: tool error: %.200s", raw)
	}
	if len(res.Content) == 0 {
		return false, fmt.Errorf("tools/call: result without content: %.200s", raw)
	}
	return bool(res.StructuredContent), nil
}

// presentJSON records whether a field held a value other than null,
// without copying it.
type presentJSON bool

// UnmarshalJSON implements [json.Unmarshaler].
func (p *presentJSON) UnmarshalJSON(b []byte) error {
	*p = string(b) != "null"
	return nil
}

// request sends a JSON-RPC request and returns its result and the answer's headers.
func (s *session) request(ctx context.Context, method string, params any) (json.RawMessage, http.Header, error) {
	id := s.next
	s.next++
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return nil, nil, err
	}
	return s.post(ctx, body, id)
}

// notify sends a notification, which the server must accept with 202.
func (s *session) notify(ctx context.Context, method string) error {
	resp, err := s.do(ctx, []byte(`{"jsonrpc":"2.0","method":"`+method+`"}`))
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("%s: HTTP %s, want 202", method, resp.Status)
	}
	return nil
}

// close ends the session on the server (DELETE), ignoring the answer.
func (s *session) close(ctx context.Context) {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, s.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", s.id)
	if resp, err := s.hc.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// post sends a request body and reads the response with id from either
// an application/json or a text/event-stream answer.
func (s *session) post(ctx context.Context, body []byte, id int64) (json.RawMessage, http.Header, error) {
	resp, err := s.do(ctx, body)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, nil, fmt.Errorf("HTTP %s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	raw, err := readResponse(resp.Header.Get("Content-Type"), resp.Body, id)
	_, _ = io.Copy(io.Discard, resp.Body) // keep the connection reusable
	return raw, resp.Header, err
}

// do POSTs body with the session's headers.
func (s *session) do(ctx context.Context, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header["Content-Type"] = []string{"application/json"}
	req.Header["Accept"] = []string{"application/json, text/event-stream"}
	if s.id != "" {
		req.Header["Mcp-Session-Id"] = []string{s.id}
		req.Header["Mcp-Protocol-Version"] = []string{s.version}
	}
	return s.hc.Do(req)
}

// maxAnswer bounds the size of one answer mcpload reads.
const maxAnswer = 16 << 20

// readResponse returns the result of the JSON-RPC response with id from
// an answer of contentType: one JSON object, or an event stream whose
// data fields carry messages (requests and notifications the server sends
// first, and responses to other ids, are skipped). A JSON-RPC error, a
// missing result and an unknown content type are errors.
func readResponse(contentType string, body io.Reader, id int64) (json.RawMessage, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, fmt.Errorf("content type %q: %w", contentType, err)
	}
	body = io.LimitReader(body, maxAnswer)
	switch mt {
	case "application/json":
		b, err := io.ReadAll(body)
		if err != nil {
			return nil, err
		}
		return matchResponse(b, id)
	case "text/event-stream":
		return readEventStream(body, id)
	default:
		return nil, fmt.Errorf("unexpected content type %q", mt)
	}
}

// readEventStream reads server-sent events until one carries the response with id.
func readEventStream(body io.Reader, id int64) (json.RawMessage, error) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), maxAnswer)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 { // end of an event
			if len(data) > 0 {
				raw, err := matchResponse(data, id)
				if !errors.Is(err, errNotOurs) {
					return raw, err
				}
			}
			data = data[:0]
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(v, []byte(" "))...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(data) > 0 { // a final event without its blank line
		raw, err := matchResponse(data, id)
		if !errors.Is(err, errNotOurs) {
			return raw, err
		}
	}
	return nil, fmt.Errorf("event stream ended without the response to id %d", id)
}

// errNotOurs marks a message that is not the response being waited for.
var errNotOurs = errors.New("not the awaited response")

// matchResponse decodes one JSON-RPC message and returns its result if it
// is the response to id; other messages give errNotOurs.
func matchResponse(b []byte, id int64) (json.RawMessage, error) {
	var r rpcResponse
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("response: %w: %.200s", err, b)
	}
	if got := strings.TrimSpace(string(r.ID)); got != strconv.FormatInt(id, 10) {
		return nil, fmt.Errorf("%w: id %s, want %d", errNotOurs, got, id)
	}
	if r.JSONRPC != "2.0" {
		return nil, fmt.Errorf("response: jsonrpc %q, want 2.0", r.JSONRPC)
	}
	if r.Error != nil {
		return nil, fmt.Errorf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)
	}
	if len(r.Result) == 0 || string(r.Result) == "null" {
		return nil, errors.New("response without result")
	}
	return r.Result, nil
}
