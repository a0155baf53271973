// Package mcphttp serves an MCP server over Streamable HTTP: the official
// SDK's handler for the protocol, with a direct path for the request that
// matters for speed, tools/call.
//
// # Why a direct path
//
// The SDK's handler answers every message through its jsonrpc2 connection:
// a goroutine per request, the body decoded twice with a decoder that
// allocates 32 KiB per message, the result marshalled again. That cost
// about 400–600 µs of server CPU per paige_get_buffer call, which Claude
// Code polls. The direct path parses a tools/call POST itself, runs the
// tool's handler in the request's goroutine and writes the answer in one
// buffer: a few tens of µs.
//
// # What takes which path
//
// A POST takes the direct path only when it is, in every respect, the
// common case: a live, initialized session the SDK created over this
// handler (Mcp-Session-Id), a protocol version header absent or one of the
// versions before 2026-07-28, Content-Type application/json, an Accept
// that admits both application/json and text/event-stream, no
// Last-Event-ID and none of the SEP-2575 Mcp-Method / Mcp-Name headers, a
// loopback Host, and a body that [parseCall] accepts naming a tool in the
// table given to [New]. Everything else — initialize, server/discover,
// tools/list, ping, notifications, GET streams, DELETE, batches, unknown
// tools, malformed or unusual bodies — goes to the SDK's handler with the
// body as it came, and is answered exactly as before.
//
// The direct answer is the SDK's: the same JSON-RPC response (content
// never null, the handler's *jsonrpc.Error as a protocol error), the same
// headers, application/json. A call id already in progress on the session
// is refused as the SDK refuses it. notifications/cancelled naming a
// direct call in progress cancels its context (and still goes to the SDK).
//
// # Sessions
//
// The SDK keeps the sessions; this handler keeps their idle timeout
// (Options.SessionTimeout), because direct calls never reach the SDK's
// timer: a session with no request in progress, on either path, for the
// timeout is closed (its client then gets 404 and starts a new one). An
// open GET stream does not count as activity. The SDK's own timeout is
// off.
package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/server/coalesce"
)

// ToolLookup returns the handler of a tool for the direct path, or false
// to let the SDK answer the call. The handler is called as the SDK's
// server calls it, with a request whose Session is the caller's session
// and whose Params hold the name, arguments and _meta; it must be safe for
// concurrent use, and must not return results that ask for input
// (ResultTypeInputRequired).
type ToolLookup func(name string) (mcp.ToolHandler, bool)

// Options configure [New]. A zero Options is valid.
type Options struct {
	// Logger receives the SDK's log lines; nil discards them.
	Logger *slog.Logger
	// SessionTimeout closes a session idle that long; <= 0 never does.
	SessionTimeout time.Duration
	// MaxBodyBytes refuses larger request bodies with 413; <= 0 means no limit.
	MaxBodyBytes int64
}

// Handler is the MCP endpoint. It is safe for concurrent use.
type Handler struct {
	srv      *mcp.Server
	sdk      *mcp.StreamableHTTPHandler
	tools    ToolLookup
	opts     Options
	sessions sessions
	bufs     sync.Pool // *[]byte: request bodies and answers
	escapes  escapes
}

// New returns the Streamable HTTP handler of s, stateful (each client gets
// its own session and Mcp-Session-Id), answering JSON rather than SSE
// where the client accepts both, with tools' calls answered directly when
// tools knows them. tools may be nil (every call goes to the SDK).
func New(s *mcp.Server, tools ToolLookup, opts *Options) *Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if tools == nil {
		tools = func(string) (mcp.ToolHandler, bool) { return nil, false }
	}
	h := &Handler{srv: s, tools: tools, opts: o, sessions: sessions{m: map[string]*session{}}}
	h.sdk = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Logger: o.Logger, JSONResponse: true, MaxRequestBodyBytes: max(o.MaxBodyBytes, 0)})
	h.bufs.New = func() any { b := make([]byte, 0, 4096); return &b }
	return h
}

const (
	sessionIDHeader       = "Mcp-Session-Id"
	protocolVersionHeader = "Mcp-Protocol-Version"
)

// legacyVersions are the protocol versions the direct path serves: those
// the SDK's stateful handler accepts in the header.
var legacyVersions = map[string]bool{"2025-11-25": true, "2025-06-18": true, "2025-03-26": true, "2024-11-05": true}

// ServeHTTP answers one request: directly when it is a common tools/call,
// through the SDK otherwise.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(sessionIDHeader)
	if r.Method != http.MethodPost || id == "" {
		h.serveSDK(w, r, nil)
		return
	}
	sess := h.sessions.get(id)
	if sess == nil || !h.directHeaders(r) {
		h.serveSDK(w, r, sess)
		return
	}
	bp := h.bufs.Get().(*[]byte)
	defer h.putBuf(bp)
	body, err := readBody(r.Body, (*bp)[:0], h.opts.MaxBodyBytes)
	*bp = body[:0]
	if err != nil {
		// Over the limit or a broken read: the SDK answers it, reading
		// what was read and then the rest.
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		h.serveSDK(w, r, sess)
		return
	}
	c, ok := parseCall(body)
	var tool mcp.ToolHandler
	if ok {
		tool, ok = h.tools(c.name)
	}
	if !ok || sess.ss.InitializeParams() == nil {
		h.cancelIfNotified(sess, body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.serveSDK(w, r, sess)
		return
	}
	h.serveCall(w, r, sess, c, tool)
}

// serveSDK hands the request to the SDK's handler, marking the session
// busy meanwhile, and starts tracking a session the SDK has just created.
func (h *Handler) serveSDK(w http.ResponseWriter, r *http.Request, sess *session) {
	if sess != nil && r.Method != http.MethodGet {
		sess.begin("", nil)
		defer sess.end("")
	}
	h.sdk.ServeHTTP(w, r)
	if sess != nil || r.Method != http.MethodPost {
		return
	}
	if id := w.Header().Get(sessionIDHeader); id != "" {
		for ss := range h.srv.Sessions() {
			if ss.ID() == id {
				h.sessions.track(ss, h.opts.SessionTimeout)
				break
			}
		}
	}
}

// directHeaders reports whether r's headers are those of the direct path.
func (h *Handler) directHeaders(r *http.Request) bool {
	hd := r.Header
	if v := hd.Get(protocolVersionHeader); v != "" && !legacyVersions[v] {
		return false
	}
	if mediaType(hd.Get("Content-Type")) != "application/json" || !acceptsBoth(hd.Values("Accept")) {
		return false
	}
	if len(hd.Values("Last-Event-Id")) > 0 || len(hd.Values("Mcp-Method")) > 0 || len(hd.Values("Mcp-Name")) > 0 {
		return false
	}
	for k := range hd {
		if strings.HasPrefix(k, "Mcp-Param-") {
			return false
		}
	}
	return loopbackHost(r.Host)
}

// serveCall runs one direct call and writes its answer.
func (h *Handler) serveCall(w http.ResponseWriter, r *http.Request, sess *session, c call, tool mcp.ToolHandler) {
	key := c.idKey()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if !sess.begin(key, cancel) {
		writeDuplicate(w, c)
		return
	}
	defer sess.end(key)
	req := &mcp.CallToolRequest{Session: sess.ss, Params: &mcp.CallToolParamsRaw{Name: c.name}}
	if c.args != nil {
		req.Params.Arguments = c.args
	}
	if c.meta != nil {
		_ = json.Unmarshal(c.meta, &req.Params.Meta) // parseCall checked it is an object
	}
	res, err := tool(ctx, req)
	bp := h.bufs.Get().(*[]byte)
	defer h.putBuf(bp)
	out, err := appendResponse((*bp)[:0], c, res, err, &h.escapes)
	*bp = out[:0]
	if err != nil {
		h.opts.Logger.Error("mcp: cannot encode the answer", "tool", c.name, "err", err)
		http.Error(w, "cannot encode the answer", http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd["Cache-Control"] = []string{"no-cache, no-transform"}
	hd["Content-Type"] = []string{"application/json"}
	hd["Content-Length"] = []string{strconv.Itoa(len(out))}
	coalesce.Response(r.Context(), len(out)) // status line, headers and answer in one write
	_, _ = w.Write(out)
}

// maxPooledBuf is the largest buffer kept for reuse: a rare large body or
// answer is not held for the life of the process.
const maxPooledBuf = 64 << 10

// putBuf returns a buffer to the pool unless it grew past maxPooledBuf.
func (h *Handler) putBuf(bp *[]byte) {
	if cap(*bp) <= maxPooledBuf {
		h.bufs.Put(bp)
	}
}

// writeDuplicate refuses a call whose id is in progress, as the SDK does.
func writeDuplicate(w http.ResponseWriter, c call) {
	id, _ := jsonrpc.MakeID(idValue(c.id)) // parseCall checked it
	b, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
		Message: fmt.Sprintf("duplicate in-flight request ID %v", id.Raw())}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(b)
}

// cancelIfNotified cancels the direct call a notifications/cancelled body
// names, if one is in progress on sess.
func (h *Handler) cancelIfNotified(sess *session, body []byte) {
	if !bytes.Contains(body, []byte("notifications/cancelled")) {
		return
	}
	var n struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
		Params struct {
			RequestID any `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &n) != nil || n.Method != "notifications/cancelled" || n.ID != nil {
		return
	}
	switch v := n.Params.RequestID.(type) {
	case float64:
		sess.cancel("n" + strconv.FormatInt(int64(v), 10))
	case string:
		sess.cancel("s" + v)
	}
}

// readBody reads r into buf, at most limit bytes (<= 0: no limit); it
// returns an error, with what it read, when there is more or the read fails.
func readBody(r io.Reader, buf []byte, limit int64) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if limit > 0 && int64(len(buf)) > limit {
			return buf, errors.New("body over the limit")
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// mediaType is a Content-Type's media type, lower case, without parameters.
func mediaType(v string) string {
	v, _, _ = strings.Cut(v, ";")
	return strings.ToLower(strings.TrimSpace(v))
}

// acceptsBoth reports whether Accept values admit application/json and
// text/event-stream, as the SDK reads them.
func acceptsBoth(values []string) bool {
	var jsonOK, streamOK bool
	for _, value := range values {
		for raw := range strings.SplitSeq(value, ",") {
			switch mediaType(raw) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// loopbackHost reports whether a Host header names the loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
