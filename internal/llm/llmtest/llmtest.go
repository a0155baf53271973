// Package llmtest is a fake Anthropic Messages API server for tests.
//
// Tests point the official SDK at [Server.URL] (option.WithBaseURL or
// ANTHROPIC_BASE_URL) and script what "Claude" answers with [Server.Enqueue]
// (a FIFO) or [Server.Handle] (a function used when the queue is empty). The
// server answers POST /v1/messages like the real API: a whole message as JSON,
// or, when the request has "stream": true, the same message rendered as SSE
// events. POST /v1/messages/count_tokens answers a rough count. GET
// /v1/models and /v1/models/{id} answer the Models API from [Server.SetModels]. Every request
// to /v1/messages is recorded ([Server.Requests]) so tests can assert what the
// SDK sent: model, system prompt, max_tokens, tools and output_config.format.
//
// Requests without a scripted response get a 500 api_error "llmtest: no
// scripted response". Requests missing model, max_tokens or messages get a 400
// invalid_request_error, as from the real API, and consume no script entry.
//
// A Server is safe for concurrent use.
package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Server is a scripted fake of the Anthropic Messages API on 127.0.0.1.
type Server struct {
	srv *httptest.Server
	ids atomic.Int64

	mu      sync.Mutex
	queue   []Response             // guarded by mu
	handler func(Request) Response // guarded by mu
	reqs    []Request              // guarded by mu
	changed chan struct{}          // closed and replaced when reqs or cancelled grows; guarded by mu
	// cancelled counts requests whose client gave up (cancelled, timed
	// out, closed the connection) before the scripted answer was sent;
	// guarded by mu.
	cancelled int
	models    []Model       // the Models API's list; guarded by mu
	modelReqs []http.Header // headers of Models API requests; guarded by mu
}

// NewServer starts a fake server; it is closed by tb.Cleanup.
func NewServer(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{changed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.handleMessages)
	mux.HandleFunc("POST /v1/messages/count_tokens", s.handleCountTokens)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("GET /v1/models/{id...}", s.handleModel)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found_error", "llmtest: no route "+r.Method+" "+r.URL.Path, -1)
	})
	s.srv = httptest.NewServer(mux)
	tb.Cleanup(s.srv.Close)
	return s
}

// URL returns the base URL to give the SDK (without /v1).
func (s *Server) URL() string { return s.srv.URL }

// Enqueue appends responses to the FIFO script.
func (s *Server) Enqueue(rs ...Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, rs...)
}

// Handle sets the function that answers requests while the queue is empty.
// f is called concurrently for concurrent requests; nil removes it.
func (s *Server) Handle(f func(Request) Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = f
}

// Requests returns every request received on /v1/messages, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// WaitRequests waits until at least n requests have arrived and returns them;
// it fails tb when timeout passes first.
func (s *Server) WaitRequests(tb testing.TB, n int, timeout time.Duration) []Request {
	tb.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, changed := len(s.reqs), s.changed
		if got >= n {
			reqs := append([]Request(nil), s.reqs...)
			s.mu.Unlock()
			return reqs
		}
		s.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			tb.Fatalf("llmtest: got %d requests, want %d within %v", got, n, timeout)
			return nil
		}
	}
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, r)
	close(s.changed)
	s.changed = make(chan struct{})
}

// Cancelled returns how many requests the client abandoned before their
// answer was sent (a [Hang] or [Response.WithDelay] answer whose request
// context ended).
func (s *Server) Cancelled() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancelled
}

// WaitCancelled waits until at least n requests were abandoned by their
// client; it fails tb when timeout passes first.
func (s *Server) WaitCancelled(tb testing.TB, n int, timeout time.Duration) {
	tb.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, changed := s.cancelled, s.changed
		s.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			tb.Fatalf("llmtest: %d requests cancelled by the client, want %d within %v", got, n, timeout)
			return
		}
	}
}

func (s *Server) abandoned() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancelled++
	close(s.changed)
	s.changed = make(chan struct{})
}

// next pops the scripted response for r: the queue first, then the handler.
func (s *Server) next(r Request) (Response, bool) {
	s.mu.Lock()
	if len(s.queue) > 0 {
		resp := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return resp, true
	}
	h := s.handler
	s.mu.Unlock()
	if h == nil {
		return Response{}, false
	}
	return h(r), true
}

func (s *Server) handleMessages(w http.ResponseWriter, hr *http.Request) {
	raw, err := io.ReadAll(io.LimitReader(hr.Body, 64<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: read body: "+err.Error(), -1)
		return
	}
	req, err := decodeRequest(hr.Header.Clone(), raw)
	s.record(req)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error(), -1)
		return
	}
	resp, ok := s.next(req)
	if !ok {
		writeError(w, http.StatusInternalServerError, "api_error", "llmtest: no scripted response", -1)
		return
	}
	if resp.hang {
		<-hr.Context().Done()
		s.abandoned()
		return
	}
	if !wait(hr.Context(), resp.delay) {
		s.abandoned()
		return
	}
	for _, h := range resp.headers {
		w.Header().Add(h[0], h[1])
	}
	if resp.status != 0 {
		writeError(w, resp.status, resp.errType, resp.errMsg, resp.retryAfter)
		return
	}
	msg := resp.render(fmt.Sprintf("msg_llmtest_%06d", s.ids.Add(1)), req)
	if resp.retryAfter >= 0 {
		w.Header().Set("retry-after", fmt.Sprint(resp.retryAfter))
	}
	w.Header().Set("request-id", fmt.Sprintf("req_llmtest_%06d", s.ids.Load()))
	if req.Stream {
		writeSSE(w, msg, resp.streamErr)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(msg)
}

func (s *Server) handleCountTokens(w http.ResponseWriter, hr *http.Request) {
	raw, err := io.ReadAll(io.LimitReader(hr.Body, 64<<20))
	if err != nil || !json.Valid(raw) {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: body is not JSON", -1)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]int64{"input_tokens": roughTokens(string(raw))})
}

// wait sleeps for d unless ctx ends first; it reports whether to go on.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// writeError answers the API's error envelope; retryAfter < 0 sends no header.
func writeError(w http.ResponseWriter, status int, errType, msg string, retryAfter int) {
	if retryAfter >= 0 {
		w.Header().Set("retry-after", fmt.Sprint(retryAfter))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_llmtest_error")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type":       "error",
		"error":      map[string]string{"type": errType, "message": msg},
		"request_id": "req_llmtest_error",
	})
}

// roughTokens estimates a token count: one per four bytes, at least one.
func roughTokens(s string) int64 {
	n := int64(len(strings.TrimSpace(s))+3) / 4
	if n < 1 {
		n = 1
	}
	return n
}
