package llmtest

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// Request is one request the server received on /v1/messages, decoded
// generically so tests can assert exactly what the SDK sent.
type Request struct {
	Header       http.Header
	Raw          []byte         // exact body
	Body         map[string]any // decoded body; nil when Raw is not a JSON object
	Model        string
	MaxTokens    int
	System       string // system prompt: the string, or its text blocks joined by "\n"
	Messages     []InputMessage
	Tools        []map[string]any
	OutputFormat map[string]any // output_config.format, nil when absent
	Stream       bool
}

// InputMessage is one input message: its role and content blocks. A string content
// is given as one text block.
type InputMessage struct {
	Role    string
	Content []map[string]any
}

// Text returns the message's text blocks joined by "\n".
func (m InputMessage) Text() string {
	var parts []string
	for _, b := range m.Content {
		if b["type"] == "text" {
			if s, ok := b["text"].(string); ok {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// LastUserText returns the text of the last user message, "" if none.
func (r Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Text()
		}
	}
	return ""
}

// Schema returns output_config.format.schema, nil when absent.
func (r Request) Schema() map[string]any {
	s, _ := r.OutputFormat["schema"].(map[string]any)
	return s
}

// decodeRequest decodes raw into a Request. It returns the partly filled
// Request and an error naming what the real API would reject.
func decodeRequest(h http.Header, raw []byte) (Request, error) {
	r := Request{Header: h, Raw: raw}
	if err := json.Unmarshal(raw, &r.Body); err != nil || r.Body == nil {
		return r, errors.New("llmtest: body is not a JSON object")
	}
	r.Model, _ = r.Body["model"].(string)
	if n, ok := r.Body["max_tokens"].(float64); ok {
		r.MaxTokens = int(n)
	}
	r.Stream, _ = r.Body["stream"].(bool)
	r.System = systemText(r.Body["system"])
	msgs, _ := r.Body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		r.Messages = append(r.Messages, InputMessage{Role: role, Content: contentBlocks(mm["content"])})
	}
	tools, _ := r.Body["tools"].([]any)
	for _, t := range tools {
		if tm, ok := t.(map[string]any); ok {
			r.Tools = append(r.Tools, tm)
		}
	}
	if oc, ok := r.Body["output_config"].(map[string]any); ok {
		r.OutputFormat, _ = oc["format"].(map[string]any)
	}
	switch {
	case r.Model == "":
		return r, errors.New("model: Field required")
	case r.Body["max_tokens"] == nil:
		return r, errors.New("max_tokens: Field required")
	case len(r.Messages) == 0:
		return r, errors.New("messages: at least one message is required")
	}
	return r, nil
}

func systemText(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case []any:
		return InputMessage{Content: contentBlocks(s)}.Text()
	}
	return ""
}

func contentBlocks(v any) []map[string]any {
	switch c := v.(type) {
	case string:
		return []map[string]any{{"type": "text", "text": c}}
	case []any:
		var out []map[string]any
		for _, b := range c {
			if bm, ok := b.(map[string]any); ok {
				out = append(out, bm)
			}
		}
		return out
	}
	return nil
}
