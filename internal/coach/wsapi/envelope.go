package wsapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Envelope is one WebSocket message: {type, payload, id?, timestamp}
// (FR-049). Payload is kept raw until the router knows which Go type the
// message type carries. Timestamp is Unix milliseconds.
type Envelope struct {
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
	ID        string          `json:"id,omitempty"`
	Timestamp int64           `json:"timestamp"`
}

// Errors returned by [DecodeEnvelope].
var (
	// ErrMalformedJSON means the frame is not a JSON object.
	ErrMalformedJSON = errors.New("wsapi: malformed JSON")
	// ErrMissingType means the object has no non-empty string "type".
	ErrMissingType = errors.New("wsapi: message has no type")
)

// wireEnvelope is what clients may send: "data" is accepted in place of
// "payload", and "id" may be a string or a number.
type wireEnvelope struct {
	Type      *string         `json:"type"`
	Payload   json.RawMessage `json:"payload"`
	Data      json.RawMessage `json:"data"`
	ID        json.RawMessage `json:"id"`
	Timestamp json.RawMessage `json:"timestamp"`
}

// DecodeEnvelope parses one client frame. It accepts "data" in place of
// "payload" (payload wins when both are present), a string or numeric id, and
// a missing or non-numeric timestamp (then 0). A missing or null payload
// becomes {}. The error wraps [ErrMalformedJSON] or [ErrMissingType] and says
// what is wrong; DecodeEnvelope never panics.
func DecodeEnvelope(frame []byte) (Envelope, error) {
	var w wireEnvelope
	trimmed := bytes.TrimSpace(frame)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Envelope{}, fmt.Errorf("%w: expected a JSON object", ErrMalformedJSON)
	}
	if err := json.Unmarshal(trimmed, &w); err != nil {
		return Envelope{}, fmt.Errorf("%w: %v", ErrMalformedJSON, err)
	}
	if w.Type == nil || *w.Type == "" {
		return Envelope{}, ErrMissingType
	}
	env := Envelope{Type: *w.Type, Payload: w.Payload}
	if isNull(env.Payload) {
		env.Payload = w.Data
	}
	if isNull(env.Payload) {
		env.Payload = json.RawMessage(`{}`)
	}
	env.ID = decodeID(w.ID)
	env.Timestamp = decodeTimestamp(w.Timestamp)
	return env, nil
}

// decodeTimestamp reads a numeric timestamp; anything else is 0.
func decodeTimestamp(raw json.RawMessage) int64 {
	var ts float64
	if json.Unmarshal(raw, &ts) == nil {
		return int64(ts)
	}
	return 0
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// decodeID keeps a string id as is and a numeric id as its JSON text.
func decodeID(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// NewEnvelope builds a server message of type typ carrying payload, stamped
// with now. A nil payload is sent as {}. It fails only when payload cannot be
// marshalled, which is a programming error.
func NewEnvelope(typ string, payload any, now time.Time) (Envelope, error) {
	raw := json.RawMessage(`{}`)
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return Envelope{}, fmt.Errorf("encode %s payload: %w", typ, err)
		}
		raw = b
	}
	return Envelope{Type: typ, Payload: raw, Timestamp: now.UnixMilli()}, nil
}

// DecodePayload unmarshals env's payload into a T, checks its size limits
// when T (or *T) has a CheckLimits() error method (the error is then a
// *limits.Error, see [limits.As]) and, when it has a Valid() error method,
// validates it. The error describes the problem for the client's
// connection:error.
func DecodePayload[T any](env Envelope) (T, error) {
	var v T
	if err := json.Unmarshal(env.Payload, &v); err != nil {
		return v, fmt.Errorf("invalid %s payload: %v", env.Type, err)
	}
	return v, checkPayload(env.Type, &v)
}

// checkPayload runs a decoded payload's CheckLimits and Valid, when it has
// them.
func checkPayload[T any](typ string, v *T) error {
	if l, ok := any(v).(interface{ CheckLimits() error }); ok {
		if err := l.CheckLimits(); err != nil {
			return fmt.Errorf("%s payload: %w", typ, err)
		}
	}
	if val, ok := any(v).(interface{ Valid() error }); ok {
		if err := val.Valid(); err != nil {
			return fmt.Errorf("invalid %s payload: %w", typ, err)
		}
	}
	return nil
}

// formatTime is the ISO 8601 UTC form timestamps take in payloads.
func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
