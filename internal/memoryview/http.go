package memoryview

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/paige-dev/paige/internal/server"
)

// MaxBodyBytes bounds request bodies.
const MaxBodyBytes = 64 << 10

// Mux is where [AddRoutes] registers the routes; *http.ServeMux satisfies it.
type Mux interface {
	Handle(pattern string, h http.Handler)
}

// AddRoutes registers the Memory page's API on mux:
//
//	GET    /api/memory?q=…                  → View
//	PATCH  /api/memory/entries/{id}         {content?, pinned?} → the entry
//	DELETE /api/memory/entries/{id}         → the forgotten entry
//	POST   /api/memory/proposals/{id}/accept → the proposal (a seed commit)
//	POST   /api/memory/proposals/{id}/reject → the proposal (a seed commit)
//	PATCH  /api/memory/memories/{id}        {content} → the memory
//	DELETE /api/memory/memories/{id}        → 204
//
// Errors are JSON {"error": "..."}: invalid input 400, unknown ids 404, a
// change the item's state refuses 409, a store that cannot change 503,
// anything else 500 (logged, not shown). Bodies are JSON (unknown fields
// refused) of at most MaxBodyBytes; the origin policy of server.Serve
// covers every route.
func AddRoutes(mux Mux, s *Service, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := handlers{s: s, log: log}
	mux.Handle("GET /api/memory", http.HandlerFunc(h.view))
	mux.Handle("PATCH /api/memory/entries/{id}", http.HandlerFunc(h.patchEntry))
	mux.Handle("DELETE /api/memory/entries/{id}", http.HandlerFunc(h.forgetEntry))
	mux.Handle("POST /api/memory/proposals/{id}/accept", h.decide(true))
	mux.Handle("POST /api/memory/proposals/{id}/reject", h.decide(false))
	mux.Handle("PATCH /api/memory/memories/{id}", http.HandlerFunc(h.patchMemory))
	mux.Handle("DELETE /api/memory/memories/{id}", http.HandlerFunc(h.forgetMemory))
}

type handlers struct {
	s   *Service
	log *slog.Logger
}

func (h handlers) view(w http.ResponseWriter, r *http.Request) {
	v, err := h.s.View(r.Context(), r.URL.Query().Get("q"))
	if err != nil {
		h.fail(w, err)
		return
	}
	server.Encode(w, http.StatusOK, v)
}

func (h handlers) patchEntry(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Content *string `json:"content"`
		Pinned  *bool   `json:"pinned"`
	}
	if err := decode(w, r, &in, false); err != nil {
		h.fail(w, err)
		return
	}
	if in.Content == nil && in.Pinned == nil {
		h.fail(w, fmt.Errorf("%w: send content, pinned or both", ErrInvalid))
		return
	}
	id := r.PathValue("id")
	var out any
	var err error
	if in.Content != nil {
		out, err = h.s.EditEntry(id, *in.Content)
	}
	if err == nil && in.Pinned != nil {
		out, err = h.s.SetPinned(id, *in.Pinned)
	}
	if err != nil {
		h.fail(w, err)
		return
	}
	server.Encode(w, http.StatusOK, out)
}

func (h handlers) forgetEntry(w http.ResponseWriter, r *http.Request) {
	e, err := h.s.ForgetEntry(r.PathValue("id"))
	if err != nil {
		h.fail(w, err)
		return
	}
	server.Encode(w, http.StatusOK, e)
}

func (h handlers) decide(accept bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{}
		if err := decode(w, r, &in, true); err != nil {
			h.fail(w, err)
			return
		}
		p, warnings, err := h.s.Decide(r.PathValue("id"), accept)
		if err != nil {
			h.fail(w, err)
			return
		}
		for _, wmsg := range warnings {
			h.log.Warn("seed", "warning", wmsg)
		}
		server.Encode(w, http.StatusOK, map[string]any{"proposal": p, "warnings": nonNil(warnings)})
	})
}

func (h handlers) patchMemory(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Content *string `json:"content"`
	}
	if err := decode(w, r, &in, false); err != nil {
		h.fail(w, err)
		return
	}
	if in.Content == nil {
		h.fail(w, fmt.Errorf("%w: send content", ErrInvalid))
		return
	}
	m, err := h.s.EditMemory(r.Context(), r.PathValue("id"), *in.Content)
	if err != nil {
		h.fail(w, err)
		return
	}
	server.Encode(w, http.StatusOK, m)
}

func (h handlers) forgetMemory(w http.ResponseWriter, r *http.Request) {
	if err := h.s.ForgetMemory(r.Context(), r.PathValue("id")); err != nil {
		h.fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// decode reads a bounded JSON body into v, refusing unknown fields; an
// empty body is accepted only when emptyOK.
func decode(w http.ResponseWriter, r *http.Request, v any, emptyOK bool) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	switch {
	case errors.Is(err, io.EOF) && emptyOK:
		return nil
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w: the request body is empty; send JSON", ErrInvalid)
	case err != nil:
		return fmt.Errorf("%w: invalid JSON body: %v", ErrInvalid, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: one JSON value expected", ErrInvalid)
	}
	return nil
}

// fail answers err with the status of its kind; only unexpected errors are
// logged, and their text is not sent.
func (h handlers) fail(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, ErrInvalid):
		status = http.StatusBadRequest
	case errors.Is(err, ErrNotFound):
		status = http.StatusNotFound
	case errors.Is(err, ErrConflict):
		status = http.StatusConflict
	case errors.Is(err, ErrUnavailable):
		status = http.StatusServiceUnavailable
	}
	msg := err.Error()
	if status == http.StatusInternalServerError {
		h.log.Error("memory page: internal error", "err", err)
		msg = "Internal error."
	}
	server.Encode(w, status, map[string]string{"error": msg})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
