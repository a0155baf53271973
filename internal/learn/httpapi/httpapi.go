// Package httpapi serves learn over HTTP: POST /api/extract runs the
// extraction pipeline on one transcript under the allowed roots, and
// /api/chat/… exposes chat sessions, messages (whole or streamed as
// server-sent events), the assembled context and the preprompts.
//
// Every error is JSON {"error": "..."}; invalid input is 400, unknown ids
// 404, no configured model 503, model failures 502, anything else 500
// (logged).
package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/paige-dev/paige/internal/learn/chat"
	"github.com/paige-dev/paige/internal/learn/contextasm"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/learn/knowledge"
	"github.com/paige-dev/paige/internal/learn/pipeline"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/server"
)

// MaxBodyBytes bounds request bodies.
const MaxBodyBytes = 1 << 20

// Deps are what the handlers need. Log may be nil.
type Deps struct {
	Store     *knowledge.Store
	Extractor extract.Extractor // nil means heuristic
	Roots     Roots
	Chat      *chat.Service
	Log       *slog.Logger
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
	case errors.Is(err, chat.ErrNotFound), errors.Is(err, contextasm.ErrNotFound):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, chat.ErrEmpty), errors.Is(err, contextasm.ErrInvalid), errors.Is(err, ErrOutsideRoots):
		writeError(w, http.StatusBadRequest, err.Error())
	case errors.Is(err, llm.ErrNoModel):
		writeError(w, http.StatusServiceUnavailable, err.Error())
	case isModelError(err):
		log.Warn("learn: model call failed", "err", err)
		writeError(w, http.StatusBadGateway, "model call failed: "+err.Error())
	default:
		log.Error("learn: internal error", "err", err)
		writeError(w, http.StatusInternalServerError, "Internal error.")
	}
}

func isModelError(err error) bool {
	var apiErr *llm.APIError
	var xErr *pipeline.ExtractError
	return errors.As(err, &apiErr) || errors.As(err, &xErr) || llm.IsTransient(err) || errorsHasPrefix(err, "claude", "ollama")
}

func errorsHasPrefix(err error, prefixes ...string) bool {
	s := err.Error()
	for _, p := range prefixes {
		if len(s) >= len(p) && s[:len(p)] == p {
			return true
		}
	}
	return false
}
