package transcript

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/paige-dev/paige/internal/learn"
)

// Claude Code's texts for a refused tool call: the tool_result of a call the
// user rejected starts with rejectedPrefix; when the user typed a reason,
// reasonMarker and the reason follow; newer versions append a note about
// memory after a blank line, which is not the user's.
const (
	rejectedPrefix = "The user doesn't want to proceed with this tool use."
	reasonMarker   = "To tell you how to proceed, the user said:"
	memoryNote     = "\n\nNote: The user's next message may contain"
	interruptMark  = "[Request interrupted by user"
	// maxReasonBytes bounds how much of a refusal's tool_result is decoded.
	maxReasonBytes = 64 << 10
)

// clarifyReason is what Claude Code writes as the "reason" when the user
// answers AskUserQuestion by asking to clarify: not the user's words.
const clarifyReason = "The user wants to clarify these questions."

// refusal handles a tool_result block b that refuses a tool call: it marks
// the chain so the next user turn is [learn.Turn.Interrupted], with the
// refused call as its context, and returns the reason the user typed, if
// any ("" otherwise).
func (s *scanner) refusal(c *chain, b resultBlock) string {
	if !b.isError {
		return ""
	}
	raw := b.content
	if raw == "" {
		return ""
	}
	var text string
	switch raw[0] {
	case '"':
		text = prefixString(raw, maxReasonBytes)
	case '[':
		text = gjson.Get(raw, "0.text").String()
		if len(text) > maxReasonBytes {
			text = text[:maxReasonBytes]
		}
	}
	if !strings.HasPrefix(text, rejectedPrefix) {
		return ""
	}
	c.interrupted = true
	c.refused = c.toolUse(b.toolUseID)
	_, reason, ok := strings.Cut(text, reasonMarker)
	if !ok {
		return ""
	}
	if i := strings.Index(reason, memoryNote); i >= 0 {
		reason = reason[:i]
	}
	reason = strings.TrimSpace(reason)
	if strings.HasPrefix(reason, clarifyReason) {
		return ""
	}
	return reason
}

// interruption records an "[Request interrupted by user…]" marker in the
// user text of a line: the next user turn follows an interruption, and the
// call under way (the open turn's last tool call), if any, is its context.
func (c *chain) interruption(text string) {
	if !strings.Contains(text, interruptMark) {
		return
	}
	c.interrupted = true
	if c.refused == nil && c.open != nil && len(c.open.ToolUse) > 0 {
		u := c.open.ToolUse[len(c.open.ToolUse)-1]
		c.refused = &u
	}
}

// toolUse returns a copy of the open turn's tool call with the given id, or
// nil.
func (c *chain) toolUse(id string) *learn.ToolUse {
	if c.open == nil {
		return nil
	}
	for _, u := range c.open.ToolUse {
		if u.ID == id {
			return &u
		}
	}
	return nil
}

// mark sets the interruption context on t, a user turn about to be
// emitted, and clears it from the chain.
func (c *chain) mark(t *learn.Turn) {
	t.Interrupted, t.Refused = c.interrupted, c.refused
	c.interrupted, c.refused = false, nil
}
