package httpapi

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/paige-dev/paige/internal/server"
)

// The caps on learn's inputs (docs/security.md lists them). An input over
// its cap is answered 413 with the field, the cap and the actual size,
// before anything is stored or sent to a model.
const (
	// MaxBodyBytes bounds request bodies.
	MaxBodyBytes = 1 << 20
	// MaxMessageBytes bounds a chat message's content.
	MaxMessageBytes = 128 << 10
	// MaxNameBytes bounds a chat session's and a preprompt's name.
	MaxNameBytes = 256
	// MaxPrepromptBytes bounds a preprompt's content: every active one
	// goes into each chat's system prompt.
	MaxPrepromptBytes = 16 << 10
	// MaxPathBytes bounds a transcript path (Linux PATH_MAX).
	MaxPathBytes = 4096
)

// capError says which field of a request is over which cap.
type capError struct {
	Field         string
	Limit, Actual int
}

func (e *capError) Error() string {
	return fmt.Sprintf("%s: %d bytes, over the limit of %d", e.Field, e.Actual, e.Limit)
}

// overCap answers 413 and reports true when value is longer than limit.
func overCap(w http.ResponseWriter, field, value string, limit int) bool {
	if len(value) <= limit {
		return false
	}
	refuse(w, &capError{Field: field, Limit: limit, Actual: len(value)})
	return true
}

// refuse answers a request decode or a cap refused: 413 naming the field,
// the limit and the actual size for a cap, else 400.
func refuse(w http.ResponseWriter, err error) {
	var ce *capError
	if !errors.As(err, &ce) {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	server.Encode(w, http.StatusRequestEntityTooLarge, map[string]any{
		"error": ce.Error(), "field": ce.Field, "limit": ce.Limit, "actual": ce.Actual})
}

// bodyTooLarge is the capError of a body http.MaxBytesReader cut: its
// declared length, or one byte over the cap when it declared none.
func bodyTooLarge(r *http.Request) *capError {
	actual := MaxBodyBytes + 1
	if r.ContentLength > MaxBodyBytes {
		actual = int(r.ContentLength)
	}
	return &capError{Field: "body", Limit: MaxBodyBytes, Actual: actual}
}
