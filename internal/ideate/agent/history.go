package agent

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// history is the Claude message history of a session, kept both as SDK
// params (to send) and as JSON (to persist without re-encoding old turns).
type history struct {
	params []anthropic.MessageParam
	raw    []json.RawMessage
	saved  int // raw[:saved] are stored unchanged
}

// loadHistory decodes a persisted JSON array of message params.
func loadHistory(data json.RawMessage) (*history, error) {
	h := &history{}
	if len(bytes.TrimSpace(data)) == 0 {
		return h, nil
	}
	if err := json.Unmarshal(data, &h.raw); err != nil {
		return nil, fmt.Errorf("decode message history: %w", err)
	}
	h.params = make([]anthropic.MessageParam, len(h.raw))
	for i, m := range h.raw {
		if err := json.Unmarshal(m, &h.params[i]); err != nil {
			return nil, fmt.Errorf("decode message %d: %w", i, err)
		}
	}
	h.saved = len(h.raw)
	return h, nil
}

func (h *history) append(p anthropic.MessageParam) error {
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	h.params = append(h.params, p)
	h.raw = append(h.raw, b)
	return nil
}

// JSON returns the history as one JSON array.
func (h *history) JSON() json.RawMessage { return core.JoinMessages(h.raw) }

func (h *history) lastRole() string {
	if len(h.params) == 0 {
		return ""
	}
	return string(h.params[len(h.params)-1].Role)
}

// AppendUserText returns the history data with the user's text added, and
// the index of the first message that changed (for [core.Progress].From):
// the text becomes one more block of the last message when that is already a
// user message (the tool results of a paused turn), so roles keep
// alternating; otherwise it is a new user message.
func AppendUserText(data json.RawMessage, text string) (json.RawMessage, int, error) {
	h, err := loadHistory(data)
	if err != nil {
		return nil, 0, err
	}
	if h.lastRole() == string(anthropic.MessageParamRoleUser) {
		n := len(h.params) - 1
		msg := h.params[n]
		msg.Content = append(append([]anthropic.ContentBlockParamUnion(nil), msg.Content...), anthropic.NewTextBlock(text))
		h.params, h.raw = h.params[:n], h.raw[:n]
		if err := h.append(msg); err != nil {
			return nil, 0, err
		}
		return h.JSON(), n, nil
	}
	from := len(h.raw)
	if err := h.append(anthropic.NewUserMessage(anthropic.NewTextBlock(text))); err != nil {
		return nil, 0, err
	}
	return h.JSON(), from, nil
}

// Due reports whether a run of s would call the model: nothing is pending
// for the user and the history ends with a user message (a new session,
// new user input, or a run interrupted by a restart or a cancel) or with a
// saved pause_turn assistant turn to continue.
func Due(s *core.Session) bool {
	if s.State.Pending != nil {
		return false
	}
	h, err := loadHistory(s.Messages)
	return err == nil && needsModel(s, h)
}

// specMissing reports whether the user resolved the session but the model
// ended its turn without writing the spec: streaming the session again
// asks for it.
func specMissing(s *core.Session, h *history) bool {
	return s.State.Resolved && !s.State.SpecGenerated && s.State.Pending == nil && !s.State.TurnPaused &&
		h.lastRole() == string(anthropic.MessageParamRoleAssistant)
}

// needsModel reports whether the history waits for a model call: it ends
// with the user's message, or with an assistant turn paused by pause_turn.
func needsModel(s *core.Session, h *history) bool {
	return h.lastRole() == string(anthropic.MessageParamRoleUser) ||
		(s.State.TurnPaused && h.lastRole() == string(anthropic.MessageParamRoleAssistant))
}
