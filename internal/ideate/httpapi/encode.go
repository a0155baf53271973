package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// maxBody bounds request bodies (the largest valid one is ~30 KB).
const maxBody = 1 << 20

func (a *API) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		a.log.Debug("ghostpath: write response", "err", err)
	}
}

// writeError answers the REST error envelope; only critical errors are
// logged as errors.
func (a *API) writeError(w http.ResponseWriter, r *http.Request, e *core.Error) {
	if e.Severity == core.SevCritical {
		a.log.Error("ghostpath: request failed", "path", r.URL.Path, "error_code", e.Code, "err", e.Message)
	} else {
		a.log.Debug("ghostpath: request rejected", "path", r.URL.Path, "error_code", e.Code, "err", e.Message)
	}
	a.writeJSON(w, e.Status, e.Response(a.o.Now()))
}

// repoError maps a repository error: not found is RESOURCE_NOT_FOUND for
// kind/id, anything else DATABASE_ERROR (logged, details hidden).
func (a *API) repoError(err error, kind, id, op string) *core.Error {
	if errors.Is(err, core.ErrNotFound) {
		return core.NotFound(kind, id).WithSession(id)
	}
	a.log.Error("ghostpath: database", "op", op, "session_id", id, "err", err)
	return core.NewError(core.CodeDatabase, "Database %s failed", op).WithSession(id).
		ForPeople("Paige could not read or save this session in its database. Try again in a moment; the details are in Paige's server log.")
}

// decodeBody parses a JSON body of at most maxBody bytes into v.
func decodeBody(r *http.Request, v any) *core.Error {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return core.Validation(core.FieldError{Field: "body", Message: "could not read the body", Type: "read_error"})
	}
	if len(b) > maxBody {
		return core.Validation(core.FieldError{Field: "body", Message: "body larger than 1 MiB", Type: "too_large"})
	}
	if err := json.Unmarshal(b, v); err != nil {
		field, msg := "body", "invalid JSON: "+err.Error()
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			field, msg = te.Field, "must be of type "+te.Type.String()
		}
		return core.Validation(core.FieldError{Field: field, Message: msg, Type: "json_invalid"})
	}
	return nil
}
