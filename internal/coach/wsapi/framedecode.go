package wsapi

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// One decode per message.
//
// The general path decodes a frame twice: [DecodeEnvelope] keeps the
// payload raw, then [DecodePayload] decodes it into the handler's type, so
// encoding/json scans a 2.6 KB buffer:update four times (about 40 µs,
// over the 50 µs budget of docs/performance.md). When "type" is the
// frame's first key (what every client we know sends), the dispatcher
// routes on it without decoding the rest, and the handler decodes the
// whole frame once, its payload straight into its type (about 21 µs).
// Anything unusual ("data" in place of "payload", a null payload, a
// second "type", malformed JSON) falls back to the general path, which
// gives every error; FuzzFrameDecodeMatchesGeneral holds the two to the
// same result.

// peekType returns the frame's type when "type" is its first key, reading
// the frame only that far.
func peekType(frame []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(frame))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	if k, err := dec.Token(); err != nil || k != "type" {
		return "", false
	}
	t, err := dec.Token()
	typ, ok := t.(string)
	return typ, err == nil && ok && typ != ""
}

// decodeFrame decodes req's frame (set by the dispatcher after
// [peekType]) into its envelope and a T, and checks the payload as
// [DecodePayload] does. Whatever the one decode cannot take goes through
// [DecodeEnvelope] and [DecodePayload], which fills req.Payload; on the
// one-decode path req.Payload stays nil and the frame stays on req, so a
// handler that wraps another [Handle] decodes it again.
func decodeFrame[T any](req *Request) (T, error) {
	frame := req.frame
	var w struct {
		Type      string          `json:"type"`
		Payload   *T              `json:"payload"`
		Data      json.RawMessage `json:"data"`
		ID        json.RawMessage `json:"id"`
		Timestamp json.RawMessage `json:"timestamp"`
	}
	if err := json.Unmarshal(frame, &w); err == nil && w.Payload != nil && w.Type == req.Type {
		req.ID = decodeID(w.ID)
		req.Timestamp = decodeTimestamp(w.Timestamp)
		return *w.Payload, checkPayload(req.Type, w.Payload)
	}
	env, err := DecodeEnvelope(frame)
	if err != nil {
		var zero T
		return zero, &Error{Code: CodeInvalidJSON, Message: err.Error()}
	}
	if env.Type != req.Type {
		var zero T
		return zero, &Error{Code: CodeInvalidMessage, Message: fmt.Sprintf("the message names two types, %q and %q", req.Type, env.Type)}
	}
	req.Envelope, req.frame = env, nil
	return DecodePayload[T](env)
}
