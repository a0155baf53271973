package server

import (
	"log/slog"
	"net/http"
	"time"
)

// DefaultBodyReadTimeout bounds how long a client may take to send a
// request body, from the moment its handler starts to the end of the body.
// Paige's bodies are small JSON documents sent by local clients; a client
// slower than this is stuck or hostile.
const DefaultBodyReadTimeout = 30 * time.Second

// Guard returns h behind the policy: every request except GET (and HEAD)
// /health is checked with [Policy.Check]; a refused request is answered
// 403 with {"error": {"code": "FORBIDDEN", "rule": …, "message": …}} and
// logged at warn level with the rule, method, path, origin and host. A nil
// log discards.
func (p *Policy) Guard(h http.Handler, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.Path == "/health" {
			h.ServeHTTP(w, r)
			return
		}
		if ref := p.Check(RequestFacts(r)); ref != nil {
			log.Warn("request refused by the origin policy", "rule", string(ref.Rule), "method", r.Method,
				"path", r.URL.Path, "origin", r.Header.Get("Origin"), "host", r.Host,
				"sec_fetch_site", r.Header.Get("Sec-Fetch-Site"), "content_type", r.Header.Get("Content-Type"))
			w.Header().Set("Cache-Control", "no-store")
			Encode(w, http.StatusForbidden, refusalBody{Error: refusalError{
				Code: "FORBIDDEN", Rule: string(ref.Rule), Message: ref.Reason}})
			return
		}
		h.ServeHTTP(w, r)
	})
}

type refusalBody struct {
	Error refusalError `json:"error"`
}

type refusalError struct {
	Code    string `json:"code"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// BodyDeadline returns h with a read deadline on every request that has a
// body: the client must have sent the whole body within timeout of the
// handler starting, or reads of the body fail (a handler decoding it
// answers an error and returns, freeing its goroutine), and so does the
// server's draining of a body the handler left unread. net/http lifts the
// deadline when the body has been read to its end (it starts its
// background read for the next request), so a handler that runs long
// afterwards (a model call, an SSE stream answering a POST) keeps its
// connection and context. Requests without a body (GET, WebSocket
// upgrades, SSE streams opened by GET) get no deadline: their headers are
// bounded by the server's ReadHeaderTimeout and nothing else is read from
// them until they end. A timeout <= 0 means [DefaultBodyReadTimeout].
func BodyDeadline(h http.Handler, timeout time.Duration) http.Handler {
	if timeout <= 0 {
		timeout = DefaultBodyReadTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
			// An error means a writer without deadlines (a test recorder):
			// nothing to bound.
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
		}
		h.ServeHTTP(w, r)
	})
}
