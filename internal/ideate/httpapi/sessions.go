package httpapi

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/core"
)

func (a *API) handleCreate() http.Handler {
	type request struct {
		Problem *string `json:"problem"`
	}
	type response struct {
		ID      string             `json:"id"`
		Problem string             `json:"problem"`
		Status  core.SessionStatus `json:"status"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		text, ok := a.decodeRequired(w, r, &req, "problem", &req.Problem)
		if !ok {
			return
		}
		problem, verr := core.ValidateProblem(text)
		if verr != nil {
			a.writeError(w, r, verr)
			return
		}
		msgs, _, err := agent.AppendUserText(nil, core.InitialMessage(problem))
		if err != nil {
			a.writeError(w, r, core.Internal())
			return
		}
		s := core.Session{ID: uuid.Must(uuid.NewV7()).String(), Problem: problem, Status: core.StatusCreated,
			CreatedAt: a.o.Now(), Messages: msgs}
		if err := a.repo.CreateSession(r.Context(), s); err != nil {
			a.log.Error("ghostpath: create session", "err", err)
			e := core.Internal()
			e.Message = "Failed to create session"
			a.writeError(w, r, e)
			return
		}
		a.writeJSON(w, http.StatusCreated, response{s.ID, s.Problem, s.Status})
	})
}

func (a *API) handleList() http.Handler {
	type item struct {
		ID             string             `json:"id"`
		Problem        string             `json:"problem"`
		Title          string             `json:"title"`
		Status         core.SessionStatus `json:"status"`
		WaitingFor     core.Waiting       `json:"waiting_for"`
		RunError       *core.RunError     `json:"run_error"`
		CreatedAt      string             `json:"created_at"`
		LastActivityAt string             `json:"last_activity_at"`
	}
	type response struct {
		Sessions   []item         `json:"sessions"`
		Pagination map[string]int `json:"pagination"`
		Total      int            `json:"total"`
		NextOffset *int           `json:"next_offset,omitempty"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		opts, verr := listOptions(r)
		if verr != nil {
			a.writeError(w, r, verr)
			return
		}
		ss, err := a.repo.ListSessions(r.Context(), opts)
		if err != nil {
			a.writeError(w, r, a.repoError(err, "Session", "", "list sessions"))
			return
		}
		total, err := a.repo.CountSessions(r.Context(), opts)
		if err != nil {
			a.writeError(w, r, a.repoError(err, "Session", "", "count sessions"))
			return
		}
		out := response{Sessions: []item{}, Pagination: map[string]int{"limit": opts.Limit, "offset": opts.Offset}, Total: total}
		for _, s := range ss {
			var runErr *core.RunError
			if s.State.Run == core.RunFailed {
				runErr = s.State.RunError
			}
			out.Sessions = append(out.Sessions, item{s.ID, preview(s.Problem, 200), s.Title, s.Status,
				core.WaitingFor(&s, a.runs.get(s.ID) != nil), runErr, formatTime(s.CreatedAt), formatTime(s.LastActivityAt)})
		}
		if next := opts.Offset + len(ss); len(ss) > 0 && next < total {
			out.NextOffset = &next
		}
		a.writeJSON(w, http.StatusOK, out)
	})
}

// deleteWait bounds how long DELETE waits for a cancelled run to stop.
const deleteWait = 30 * time.Second

// maxQueryLen bounds the ?q search text, in characters.
const maxQueryLen = 200

// listOptions validates ?limit (1–100, default 10), ?offset (>= 0),
// ?status and ?q (a search text of at most maxQueryLen characters).
func listOptions(r *http.Request) (core.ListOptions, *core.Error) {
	o := core.ListOptions{Limit: 10}
	var errs []core.FieldError
	q := r.URL.Query()
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			errs = append(errs, core.FieldError{Field: "query.limit", Message: "must be an integer between 1 and 100", Type: "range"})
		}
		o.Limit = n
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			errs = append(errs, core.FieldError{Field: "query.offset", Message: "must be an integer >= 0", Type: "range"})
		}
		o.Offset = n
	}
	if v := q.Get("status"); v != "" {
		o.Status = core.SessionStatus(v)
		if !o.Status.Valid() {
			errs = append(errs, core.FieldError{Field: "query.status", Message: "must be one of created, active, resolved, cancelled", Type: "enum"})
		}
	}
	if v := strings.TrimSpace(q.Get("q")); v != "" {
		if utf8.RuneCountInString(v) > maxQueryLen || !utf8.ValidString(v) {
			errs = append(errs, core.FieldError{Field: "query.q", Message: "must be valid text of at most 200 characters", Type: "string_too_long"})
		}
		o.Query = v
	}
	if len(errs) > 0 {
		return o, core.Validation(errs...)
	}
	return o, nil
}

func preview(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "..."
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func formatTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := formatTime(*t)
	return &s
}

// load returns the session named by the {id} path value, or the error to answer.
func (a *API) load(ctx context.Context, r *http.Request) (core.Session, *core.Error) {
	id := r.PathValue("id")
	s, err := a.repo.GetSession(ctx, id)
	if err != nil {
		return s, a.repoError(err, "Session", id, "get session")
	}
	return s, nil
}

// onSession serves h with the session named by the {id} path value, or
// answers the error loading it.
func (a *API) onSession(h func(w http.ResponseWriter, r *http.Request, s core.Session)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, e := a.load(r.Context(), r)
		if e != nil {
			a.writeError(w, r, e)
			return
		}
		h(w, r, s)
	})
}

// writeDetail answers with the detail of s.
func (a *API) writeDetail(w http.ResponseWriter, r *http.Request, s core.Session) {
	detail, err := a.sessionDetail(r.Context(), s)
	if err != nil {
		a.writeError(w, r, a.repoError(err, "Session", s.ID, "load rounds"))
		return
	}
	a.writeJSON(w, http.StatusOK, detail)
}

// decodeRequired decodes the body into req and returns the string its
// field named name points to once decoded, answering the request (false)
// when the body is invalid or the field is missing.
func (a *API) decodeRequired(w http.ResponseWriter, r *http.Request, req any, name string, field **string) (string, bool) {
	if err := decodeBody(r, req); err != nil {
		a.writeError(w, r, err)
		return "", false
	}
	if *field == nil {
		a.writeError(w, r, core.Validation(core.FieldError{Field: name, Message: "is required", Type: "missing"}))
		return "", false
	}
	return **field, true
}

func (a *API) handleGet() http.Handler {
	return a.onSession(a.writeDetail)
}

func (a *API) handleDelete() http.Handler {
	return a.onSession(func(w http.ResponseWriter, r *http.Request, s core.Session) {
		// Any state may be deleted: a running run is cancelled first and
		// awaited, so it cannot write to the session after it is gone.
		if run := a.runs.get(s.ID); run != nil {
			if err := a.repo.UpdateStatus(r.Context(), s.ID, core.StatusCancelled, nil); err != nil {
				a.writeError(w, r, a.repoError(err, "Session", s.ID, "cancel session"))
				return
			}
			run.cancel()
			if !run.wait(r.Context(), deleteWait) {
				a.writeError(w, r, core.NewError(core.CodeConcurrency, "The session's run is still stopping; try again").WithSession(s.ID))
				return
			}
		}
		if err := a.repo.DeleteSession(r.Context(), s.ID); err != nil {
			a.writeError(w, r, a.repoError(err, "Session", s.ID, "delete session"))
			return
		}
		if s.SpecPath != "" {
			if err := os.Remove(s.SpecPath); err != nil && !os.IsNotExist(err) {
				a.log.Warn("ghostpath: remove spec file", "path", s.SpecPath, "err", err)
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

func (a *API) handleCancel() http.Handler {
	return a.onSession(func(w http.ResponseWriter, r *http.Request, s core.Session) {
		// Created and active sessions can be cancelled, whether a run is in
		// progress or they are paused for the user; a resolved one only while
		// its run (the final spec) is in progress.
		running := a.runs.get(s.ID) != nil
		if s.Status == core.StatusCancelled || (s.Status == core.StatusResolved && !running) {
			a.writeError(w, r, core.NewError(core.CodeInvalidSessionState,
				"Cannot cancel session with status '%s'", s.Status).WithSession(s.ID))
			return
		}
		if err := a.repo.UpdateStatus(r.Context(), s.ID, core.StatusCancelled, nil); err != nil {
			a.writeError(w, r, a.repoError(err, "Session", s.ID, "cancel session"))
			return
		}
		a.runs.cancel(s.ID)
		a.writeJSON(w, http.StatusOK, map[string]string{"message": "Session cancelled"})
	})
}

func (a *API) handleSpec() http.Handler {
	return a.onSession(func(w http.ResponseWriter, r *http.Request, s core.Session) {
		b, err := os.ReadFile(s.SpecPath)
		if s.SpecPath == "" || err != nil {
			if err != nil && !os.IsNotExist(err) {
				a.log.Error("ghostpath: read spec", "path", s.SpecPath, "err", err)
			}
			a.writeError(w, r, core.NotFound("Spec", s.ID).WithSession(s.ID))
			return
		}
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="ghostpath-spec-`+s.ID+`.md"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		w.Write(b)
	})
}
