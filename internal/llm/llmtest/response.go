package llmtest

import (
	"encoding/json"
	"fmt"
	"time"
)

// Response is one scripted answer: a whole message, or an API error. The zero
// Response is an empty end_turn message. Builders return copies, so a
// Response can be reused.
type Response struct {
	status     int // non-zero: an error answer
	errType    string
	errMsg     string
	stop       string
	blocks     []Block
	usage      *[2]int64 // input, output; nil means estimated
	retryAfter int       // seconds; < 0 means no header
	delay      time.Duration
	hang       bool      // never answer: block until the client gives up
	streamErr  [2]string // error type and message sent mid-stream; "" none
	headers    [][2]string
}

// Block is one content block of a scripted message.
type Block struct {
	m map[string]any
}

// WebResult is one web_search_result inside a web_search_tool_result block.
type WebResult struct {
	URL, Title, PageAge string
}

// Text returns a message with one text block and stop_reason end_turn.
func Text(s string) Response { return Message("end_turn", TextBlock(s)) }

// JSON returns a message whose one text block holds json.Marshal(v), as the
// API answers a structured-output request. It panics if v cannot be marshalled.
func JSON(v any) Response {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest.JSON: %v", err))
	}
	return Text(string(b))
}

// ToolUse returns a message with one tool_use block and stop_reason tool_use.
func ToolUse(id, name string, input any) Response {
	return Message("tool_use", ToolUseBlock(id, name, input))
}

// Message returns a message with the given stop_reason and content blocks.
func Message(stop string, blocks ...Block) Response {
	return Response{stop: stop, blocks: append([]Block(nil), blocks...), retryAfter: -1}
}

// TextBlock returns a text block.
func TextBlock(s string) Block { return Block{m: map[string]any{"type": "text", "text": s}} }

// ToolUseBlock returns a tool_use block (a client tool call). It panics if
// input cannot be marshalled.
func ToolUseBlock(id, name string, input any) Block {
	return Block{m: map[string]any{"type": "tool_use", "id": id, "name": name, "input": rawInput(input)}}
}

// ServerToolUseBlock returns a server_tool_use block, e.g. a web_search the
// API ran itself.
func ServerToolUseBlock(id, name string, input any) Block {
	return Block{m: map[string]any{"type": "server_tool_use", "id": id, "name": name, "input": rawInput(input)}}
}

// WebSearchResultBlock returns a web_search_tool_result block answering the
// server_tool_use block toolUseID.
func WebSearchResultBlock(toolUseID string, results ...WebResult) Block {
	content := make([]map[string]any, 0, len(results))
	for _, r := range results {
		content = append(content, map[string]any{
			"type":              "web_search_result",
			"url":               r.URL,
			"title":             r.Title,
			"page_age":          r.PageAge,
			"encrypted_content": "llmtest-encrypted",
		})
	}
	return Block{m: map[string]any{"type": "web_search_tool_result", "tool_use_id": toolUseID, "content": content}}
}

// Error returns an API error answer, e.g. 429 rate_limit_error, 529
// overloaded_error, 500 api_error, 401 authentication_error, 400
// invalid_request_error.
func Error(status int, errType, msg string) Response {
	return Response{status: status, errType: errType, errMsg: msg, retryAfter: -1}
}

// WithUsage returns r reporting in input and out output tokens.
func (r Response) WithUsage(in, out int64) Response {
	r.usage = &[2]int64{in, out}
	return r
}

// WithStop returns r with stop_reason reason: end_turn, tool_use, max_tokens,
// refusal, pause_turn or stop_sequence.
func (r Response) WithStop(reason string) Response {
	r.stop = reason
	return r
}

// WithRetryAfter returns r with a retry-after header of seconds.
func (r Response) WithRetryAfter(seconds int) Response {
	r.retryAfter = seconds
	return r
}

// WithHeader returns r answered with the extra header name: value, e.g.
// retry-after as an HTTP date or retry-after-ms.
func (r Response) WithHeader(name, value string) Response {
	r.headers = append(append([][2]string(nil), r.headers...), [2]string{name, value})
	return r
}

// WithDelay returns r answered only after d (or never, if the client gives
// up first): for cancellation and timeout tests.
func (r Response) WithDelay(d time.Duration) Response {
	r.delay = d
	return r
}

// Hang returns a response that never comes: the server holds the request
// until the client cancels it or its deadline passes, as a stuck model
// does. The abandoned request counts in [Server.Cancelled]. Deadline and
// cancellation tests need no real waiting beyond their own short deadline.
func Hang() Response { return Response{hang: true, retryAfter: -1} }

// WithStreamError returns r that, answered as a stream, breaks off after the
// first content delta with an SSE error event (e.g. "overloaded_error"), as
// the API does when it fails mid-stream. Non-streaming requests get the
// whole message.
func (r Response) WithStreamError(errType, msg string) Response {
	r.streamErr = [2]string{errType, msg}
	return r
}

func rawInput(v any) json.RawMessage {
	if v == nil {
		return json.RawMessage(`{}`)
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: tool input: %v", err))
	}
	return b
}

// wireMessage is the API's Message object.
type wireMessage struct {
	ID           string           `json:"id"`
	Type         string           `json:"type"`
	Role         string           `json:"role"`
	Model        string           `json:"model"`
	Content      []map[string]any `json:"content"`
	StopReason   *string          `json:"stop_reason"`
	StopSequence *string          `json:"stop_sequence"`
	Usage        wireUsage        `json:"usage"`
}

type wireUsage struct {
	InputTokens   int64           `json:"input_tokens"`
	OutputTokens  int64           `json:"output_tokens"`
	ServerToolUse *map[string]int `json:"server_tool_use,omitempty"`
}

// render builds the wire message answering req.
func (r Response) render(id string, req Request) wireMessage {
	stop := r.stop
	if stop == "" {
		stop = "end_turn"
	}
	msg := wireMessage{ID: id, Type: "message", Role: "assistant", Model: req.Model, StopReason: &stop,
		Content: make([]map[string]any, 0, len(r.blocks))}
	if stop == "stop_sequence" {
		seq := "\n\nHuman:"
		msg.StopSequence = &seq
	}
	searches, outText := 0, ""
	for _, b := range r.blocks {
		msg.Content = append(msg.Content, b.m)
		switch b.m["type"] {
		case "server_tool_use":
			searches++
		case "text":
			outText += b.m["text"].(string)
		default:
			in, _ := json.Marshal(b.m["input"])
			outText += string(in)
		}
	}
	msg.Usage = wireUsage{InputTokens: inputTokens(req), OutputTokens: roughTokens(outText)}
	if r.usage != nil {
		msg.Usage.InputTokens, msg.Usage.OutputTokens = r.usage[0], r.usage[1]
	}
	if searches > 0 {
		msg.Usage.ServerToolUse = &map[string]int{"web_search_requests": searches}
	}
	return msg
}

// inputTokens estimates the prompt size from what the model reads (system,
// messages, tools, output format), so streamed and whole answers agree.
func inputTokens(req Request) int64 {
	b, _ := json.Marshal([]any{req.Body["system"], req.Body["messages"], req.Body["tools"], req.OutputFormat})
	return roughTokens(string(b))
}
