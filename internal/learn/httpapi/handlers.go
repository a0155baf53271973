package httpapi

import (
	"errors"
	"net/http"
	"sync"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/learn/chat"
	"github.com/paige-dev/paige/internal/learn/learncontext"
	"github.com/paige-dev/paige/internal/learn/pipeline"
	"github.com/paige-dev/paige/internal/server"
	"github.com/paige-dev/paige/internal/server/sse"
)

// handleExtract answers POST /api/extract {transcriptPath, force?, dryRun?}
// with {stats, entries}. Extractions run one at a time, so two requests
// for one transcript cannot both pass the already-extracted and duplicate
// checks.
func handleExtract(d Deps) http.Handler {
	var mu sync.Mutex
	type request struct {
		TranscriptPath string `json:"transcriptPath"`
		Force          bool   `json:"force"`
		DryRun         bool   `json:"dryRun"`
	}
	type response struct {
		Stats   learn.Stats   `json:"stats"`
		Entries []learn.Entry `json:"entries"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := decode(w, r, &req); err != nil {
			refuse(w, err)
			return
		}
		if overCap(w, "transcriptPath", req.TranscriptPath, MaxPathBytes) {
			return
		}
		path, err := d.Roots.Resolve(req.TranscriptPath)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		mu.Lock()
		defer mu.Unlock()
		res, err := pipeline.Run(r.Context(), path, pipeline.Options{Store: d.Store, Extractor: d.Extractor, Force: req.Force, DryRun: req.DryRun, NoTrail: d.NoTrail})
		if err != nil {
			fail(w, d.Log, err)
			return
		}
		server.Encode(w, http.StatusOK, response{Stats: res.Stats, Entries: res.Entries})
	})
}

type messageRequest struct {
	Content string `json:"content"`
}

func handleCreateSession(d Deps) http.Handler {
	type request struct {
		Name string `json:"name"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := decode(w, r, &req); err != nil && !errors.Is(err, errEmptyBody) { // no body: default name
			refuse(w, err)
			return
		}
		if overCap(w, "name", req.Name, MaxNameBytes) {
			return
		}
		ss, err := d.Chat.CreateSession(r.Context(), req.Name)
		if err != nil {
			fail(w, d.Log, err)
			return
		}
		server.Encode(w, http.StatusCreated, ss)
	})
}

func handleListSessions(d Deps) http.Handler {
	return answer(d, http.StatusOK, "sessions", func(r *http.Request) ([]chat.Session, error) {
		return d.Chat.Sessions(r.Context())
	})
}

func handleListMessages(d Deps) http.Handler {
	return answer(d, http.StatusOK, "messages", func(r *http.Request) ([]chat.Message, error) {
		return d.Chat.Messages(r.Context(), r.PathValue("id"))
	})
}

// answer serves what get returns with status, as {key: value} (the bare
// value when key is ""), or get's error as [fail] answers it.
func answer[T any](d Deps, status int, key string, get func(r *http.Request) (T, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := get(r)
		if err != nil {
			fail(w, d.Log, err)
			return
		}
		if key == "" {
			server.Encode(w, status, v)
			return
		}
		server.Encode(w, status, map[string]any{key: v})
	})
}

// decodeMessage reads a {content} body within [MaxMessageBytes]; false
// means the request has been answered with the refusal.
func decodeMessage(w http.ResponseWriter, r *http.Request) (messageRequest, bool) {
	var req messageRequest
	if err := decode(w, r, &req); err != nil {
		refuse(w, err)
		return req, false
	}
	return req, !overCap(w, "content", req.Content, MaxMessageBytes)
}

// handleSend answers POST /api/chat/sessions/{id}/messages {content} with
// the stored assistant message.
func handleSend(d Deps) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, ok := decodeMessage(w, r)
		if !ok {
			return
		}
		m, err := d.Chat.Send(r.Context(), r.PathValue("id"), req.Content)
		if err != nil {
			fail(w, d.Log, err)
			return
		}
		server.Encode(w, http.StatusOK, map[string]any{"message": m})
	})
}

// handleStream answers POST /api/chat/sessions/{id}/stream {content} with
// server-sent events (internal/server/sse, with keep-alive comments while
// idle): "delta" {text} for each piece of the reply, then
// "done" {message} with the stored message, or "error" {error, kind?} with
// a clean message (see modelFailure); a failed reply (timeout, refusal,
// truncation, provider error) is not stored. Errors found before the stream
// starts (bad body, unknown session) are plain JSON. The request's context
// bounds the model call: a client that disconnects cancels it.
func handleStream(d Deps) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, ok := decodeMessage(w, r)
		if !ok {
			return
		}
		if _, err := d.Chat.Messages(r.Context(), r.PathValue("id")); err != nil {
			fail(w, d.Log, err)
			return
		}
		stream, err := sse.Start(w)
		if err != nil {
			d.Log.Error("learn: chat: cannot stream", "err", err)
			return
		}
		// Keep-alives hold the stream open while the model thinks before
		// its first delta.
		stop := stream.KeepAliveEvery(d.keepAlive())
		defer stop()
		m, err := d.Chat.Stream(r.Context(), r.PathValue("id"), req.Content, func(text string) error {
			return stream.Event("delta", map[string]string{"text": text})
		})
		stop() // nothing after the last event
		if err != nil {
			if r.Context().Err() == nil { // else the client went away: nothing to answer
				_, body := modelFailure(d.Log, err)
				_ = stream.Event("error", body)
			}
			return
		}
		_ = stream.Event("done", map[string]any{"message": m})
	})
}

func handleContext(d Deps) http.Handler {
	return answer(d, http.StatusOK, "", func(r *http.Request) (learncontext.Assembled, error) {
		return d.Chat.Assembler.Assemble(r.Context())
	})
}

func handleListPreprompts(d Deps) http.Handler {
	return answer(d, http.StatusOK, "preprompts", func(r *http.Request) ([]learncontext.Preprompt, error) {
		return d.Chat.Assembler.Preprompts.List(r.Context(), false)
	})
}

func handleAddPreprompt(d Deps) http.Handler {
	type request struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Content  string `json:"content"`
		Priority int    `json:"priority"`
		Active   *bool  `json:"active"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := decode(w, r, &req); err != nil {
			refuse(w, err)
			return
		}
		if overCap(w, "name", req.Name, MaxNameBytes) || overCap(w, "content", req.Content, MaxPrepromptBytes) {
			return
		}
		p := learncontext.Preprompt{Name: req.Name, Type: req.Type, Content: req.Content, Priority: req.Priority, Active: req.Active == nil || *req.Active}
		p, err := d.Chat.Assembler.Preprompts.Add(r.Context(), p)
		if err != nil {
			fail(w, d.Log, err)
			return
		}
		server.Encode(w, http.StatusCreated, p)
	})
}

func handleSetPreprompt(d Deps) http.Handler {
	type request struct {
		Active *bool `json:"active"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := decode(w, r, &req); err != nil || req.Active == nil {
			writeError(w, http.StatusBadRequest, `send {"active": true|false}`)
			return
		}
		if err := d.Chat.Assembler.Preprompts.SetActive(r.Context(), r.PathValue("id"), *req.Active); err != nil {
			fail(w, d.Log, err)
			return
		}
		server.Encode(w, http.StatusOK, map[string]any{"id": r.PathValue("id"), "active": *req.Active})
	})
}

func handleDeletePreprompt(d Deps) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := d.Chat.Assembler.Preprompts.Delete(r.Context(), r.PathValue("id")); err != nil {
			fail(w, d.Log, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
