package agent

import (
	"github.com/anthropics/anthropic-sdk-go"

	"github.com/paige-dev/paige/internal/redact"
)

// redactParams returns params with the secrets of the text the user side
// sends (user text, tool results) replaced by markers (internal/redact), so
// none reaches the model (issue 29). The system prompt, the program's own
// text, is sent as written. It copies what it changes: params and the
// history it points into stay as they were.
func redactParams(params anthropic.MessageNewParams) anthropic.MessageNewParams {
	msgs := make([]anthropic.MessageParam, len(params.Messages))
	for i, m := range params.Messages {
		if m.Role == anthropic.MessageParamRoleUser {
			m.Content = redactBlocks(m.Content)
		}
		msgs[i] = m
	}
	params.Messages = msgs
	return params
}

// redactBlocks returns a copy of blocks with text and tool results redacted.
func redactBlocks(blocks []anthropic.ContentBlockParamUnion) []anthropic.ContentBlockParamUnion {
	out := make([]anthropic.ContentBlockParamUnion, len(blocks))
	for i, b := range blocks {
		switch {
		case b.OfText != nil:
			t := *b.OfText
			t.Text = redact.String(t.Text)
			b.OfText = &t
		case b.OfToolResult != nil:
			r := *b.OfToolResult
			r.Content = make([]anthropic.ToolResultBlockParamContentUnion, len(b.OfToolResult.Content))
			for j, c := range b.OfToolResult.Content {
				if c.OfText != nil {
					t := *c.OfText
					t.Text = redact.String(t.Text)
					c.OfText = &t
				}
				r.Content[j] = c
			}
			b.OfToolResult = &r
		}
		out[i] = b
	}
	return out
}
