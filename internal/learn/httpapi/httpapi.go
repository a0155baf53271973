// Package httpapi serves learn over HTTP: POST /api/extract runs the
// extraction pipeline on one transcript under the allowed roots, and
// /api/chat/… exposes chat sessions, messages (whole or streamed as
// server-sent events), the assembled context and the preprompts.
//
// Every error is JSON {"error": "..."}; invalid input is 400, unknown ids
// 404, no configured model 503, a model that did not answer within its
// deadline 504, other model failures 502 (with "kind", see llm.Kind), anything
// else 500 (logged). Model failures are answered with a clean sentence per
// kind: the provider's error text is logged, never sent.
package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/paige-dev/paige/internal/learn/chat"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/learncontext"
	"github.com/paige-dev/paige/internal/learn/pipeline"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/server"
)

// Deps are what the handlers need. Log may be nil.
type Deps struct {
	Store     *knowledge.Store
	Extractor extract.Extractor // nil means heuristic
	Roots     Roots
	Chat      *chat.Service
	Log       *slog.Logger
	NoTrail   bool // learn nothing from the tool trail (PAIGE_LEARN_TRAIL=off)
	// KeepAlive is the interval of the chat stream's keep-alive comments;
	// zero means [DefaultKeepAlive].
	KeepAlive time.Duration
}

// DefaultKeepAlive is [Deps.KeepAlive] when zero.
const DefaultKeepAlive = 15 * time.Second

func (d Deps) keepAlive() time.Duration {
	if d.KeepAlive > 0 {
		return d.KeepAlive
	}
	return DefaultKeepAlive
}

// Mux is where [AddRoutes] registers the routes; *http.ServeMux satisfies it.
type Mux interface {
	Handle(pattern string, h http.Handler)
}

// AddRoutes registers learn's routes on mux.
func AddRoutes(mux Mux, d Deps) {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	mux.Handle("POST /api/extract", handleExtract(d))
	mux.Handle("POST /api/chat/sessions", handleCreateSession(d))
	mux.Handle("GET /api/chat/sessions", handleListSessions(d))
	mux.Handle("GET /api/chat/sessions/{id}/messages", handleListMessages(d))
	mux.Handle("POST /api/chat/sessions/{id}/messages", handleSend(d))
	mux.Handle("POST /api/chat/sessions/{id}/stream", handleStream(d))
	mux.Handle("GET /api/chat/context", handleContext(d))
	mux.Handle("GET /api/chat/preprompts", handleListPreprompts(d))
	mux.Handle("POST /api/chat/preprompts", handleAddPreprompt(d))
	mux.Handle("PATCH /api/chat/preprompts/{id}", handleSetPreprompt(d))
	mux.Handle("DELETE /api/chat/preprompts/{id}", handleDeletePreprompt(d))
}

var errEmptyBody = errors.New("request body is empty; send JSON")

// decode reads a JSON body into v: bounded, unknown fields refused.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errEmptyBody
		}
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return bodyTooLarge(r)
		}
		return fmt.Errorf("invalid JSON body: %v", err)
	}
	return nil
}

func writeError(w http.ResponseWriter, status int, msg string) {
	server.Encode(w, status, map[string]string{"error": msg})
}

// fail answers err with the status its kind maps to; only internal errors
// are logged and hidden.
func fail(w http.ResponseWriter, log *slog.Logger, err error) {
	switch {
	case errors.Is(err, chat.ErrNotFound), errors.Is(err, learncontext.ErrNotFound):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, chat.ErrEmpty), errors.Is(err, learncontext.ErrInvalid), errors.Is(err, ErrOutsideRoots):
		writeError(w, http.StatusBadRequest, err.Error())
	default:
		status, body := modelFailure(log, err)
		server.Encode(w, status, body)
	}
}

// modelFailure returns the status and JSON body answering a failed model
// call, or 500 "Internal error." for anything else; it logs the raw error.
func modelFailure(log *slog.Logger, err error) (int, map[string]string) {
	kind := llm.Classify(err)
	var xErr *pipeline.ExtractError
	if kind == llm.KindUnknown && !errors.As(err, &xErr) || kind == llm.KindCancelled {
		log.Error("learn: internal error", "err", err)
		return http.StatusInternalServerError, map[string]string{"error": "Internal error."}
	}
	log.Warn("learn: model call failed", "kind", string(kind), "err", err)
	status := http.StatusBadGateway
	switch kind {
	case llm.KindNoModel:
		status = http.StatusServiceUnavailable
	case llm.KindTimeout:
		status = http.StatusGatewayTimeout
	}
	return status, map[string]string{"error": kind.Message(), "kind": string(kind)}
}
