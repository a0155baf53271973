package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/llm"
)

// Turn is one message of the history sent to a model.
type Turn struct {
	Role    string // "user" or "assistant"
	Content string
}

// Reply is a model's whole answer with its token usage.
type Reply struct {
	Text         string
	Model        string
	InputTokens  int64
	OutputTokens int64
}

// Model answers a conversation. Stream calls onDelta with each piece of
// text as it arrives (an error from onDelta stops the stream) and returns
// the whole reply at the end. Implementations are safe for concurrent use.
type Model interface {
	Name() string
	Reply(ctx context.Context, system string, history []Turn) (Reply, error)
	Stream(ctx context.Context, system string, history []Turn, onDelta func(string) error) (Reply, error)
}

// DefaultMaxTokens bounds a chat reply.
const DefaultMaxTokens = 4096

// Claude is a [Model] on the Anthropic Messages API through the SDK of an
// [llm.Client] (streaming with the SDK's event accumulator).
type Claude struct {
	Client *llm.Client // required
	Tier   llm.Tier    // empty means llm.Sonnet
	Model  string      // explicit model id; overrides Tier
}

var _ Model = (*Claude)(nil)

// Name returns "claude:<model id>".
func (c *Claude) Name() string { return "claude:" + c.model() }

func (c *Claude) model() string {
	if c.Model != "" {
		return c.Model
	}
	if c.Tier == "" {
		return c.Client.Model(llm.Sonnet)
	}
	return c.Client.Model(c.Tier)
}

func (c *Claude) params(system string, history []Turn) anthropic.MessageNewParams {
	p := anthropic.MessageNewParams{Model: anthropic.Model(c.model()), MaxTokens: DefaultMaxTokens}
	if system != "" {
		p.System = []anthropic.TextBlockParam{{Text: system}}
	}
	for _, t := range history {
		if t.Role == "assistant" {
			p.Messages = append(p.Messages, anthropic.NewAssistantMessage(anthropic.NewTextBlock(t.Content)))
		} else {
			p.Messages = append(p.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock(t.Content)))
		}
	}
	return p
}

// Reply implements [Model]. Without an API key it returns [llm.ErrNoModel].
// Transient failures are retried under the client's [llm.RetryPolicy];
// errors are llm's typed errors. The call runs under the chat deadline
// (*llm.TimeoutError); a refusal is an *llm.RefusalError, a reply cut at
// max_tokens an *llm.MaxTokensError, an empty reply an
// *llm.InvalidReplyError: none is a complete answer.
func (c *Claude) Reply(ctx context.Context, system string, history []Turn) (Reply, error) {
	if !c.Client.Available() {
		return Reply{}, llm.ErrNoModel
	}
	ctx, cancel := c.Client.WithDeadline(ctx, llm.CallTypeChat)
	defer cancel()
	var msg *anthropic.Message
	err := c.Client.Retry(ctx, llm.CallTypeChat, func(ctx context.Context) (err error) {
		msg, err = c.Client.SDK().Messages.New(ctx, c.params(system, history))
		return llm.WrapError(err)
	})
	if err != nil {
		return Reply{}, fmt.Errorf("claude: %w", llm.TimeoutCause(ctx, err))
	}
	return claudeReply(msg, DefaultMaxTokens)
}

// Stream implements [Model], with the errors of [Claude.Reply]; the
// deadline bounds the whole stream. A failure before the first piece of
// text (an HTTP error, or an error event such as overloaded_error) is
// retried like Reply's; once text has reached onDelta it is not, since
// the reader already has part of the reply.
func (c *Claude) Stream(ctx context.Context, system string, history []Turn, onDelta func(string) error) (Reply, error) {
	if !c.Client.Available() {
		return Reply{}, llm.ErrNoModel
	}
	ctx, cancel := c.Client.WithDeadline(ctx, llm.CallTypeChat)
	defer cancel()
	var msg anthropic.Message
	err := c.Client.Retry(ctx, llm.CallTypeChat, func(ctx context.Context) error {
		msg = anthropic.Message{}
		return c.stream(ctx, system, history, &msg, onDelta)
	})
	if err != nil {
		return Reply{}, fmt.Errorf("claude stream: %w", llm.TimeoutCause(ctx, err))
	}
	return claudeReply(&msg, DefaultMaxTokens)
}

// stream is one attempt of Stream, accumulating into msg.
func (c *Claude) stream(ctx context.Context, system string, history []Turn, msg *anthropic.Message, onDelta func(string) error) error {
	stream := c.Client.SDK().Messages.NewStreaming(ctx, c.params(system, history))
	defer stream.Close()
	sent := false
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return llm.Permanent(err)
		}
		if d, ok := ev.AsAny().(anthropic.ContentBlockDeltaEvent); ok {
			if t, ok := d.Delta.AsAny().(anthropic.TextDelta); ok && t.Text != "" {
				sent = true
				if err := onDelta(t.Text); err != nil {
					return llm.Permanent(err)
				}
			}
		}
	}
	err := llm.WrapError(stream.Err())
	if sent {
		return llm.Permanent(err)
	}
	return err
}

// claudeReply returns m's text, or the error of a reply that is not a
// complete answer.
func claudeReply(m *anthropic.Message, maxTokens int) (Reply, error) {
	var b strings.Builder
	for _, blk := range m.Content {
		if blk.Type == "text" {
			b.WriteString(blk.Text)
		}
	}
	r := Reply{Text: b.String(), Model: string(m.Model), InputTokens: m.Usage.InputTokens, OutputTokens: m.Usage.OutputTokens}
	switch {
	case m.StopReason == anthropic.StopReasonRefusal:
		return Reply{}, &llm.RefusalError{Model: r.Model, Text: r.Text}
	case m.StopReason == anthropic.StopReasonMaxTokens:
		return Reply{}, &llm.MaxTokensError{Model: r.Model, MaxTokens: maxTokens, OutputTokens: r.OutputTokens}
	case m.StopReason != anthropic.StopReasonEndTurn && m.StopReason != anthropic.StopReasonStopSequence:
		return Reply{}, &llm.InvalidReplyError{Text: r.Text, Reason: "unexpected stop_reason " + string(m.StopReason)}
	case strings.TrimSpace(r.Text) == "":
		return Reply{}, &llm.InvalidReplyError{Reason: "empty reply"}
	}
	return r, nil
}

// Ollama is a [Model] on a local Ollama server (POST /api/chat; streaming
// reads its newline-delimited JSON chunks).
type Ollama struct {
	URL    string       // empty means extract.DefaultOllamaURL
	Model  string       // required
	Client *http.Client // nil: 5 minute timeout for whole replies, none for streams (ctx bounds them)
	// Timeout bounds one reply; zero means llm.DeadlineLocalModel.
	Timeout time.Duration
}

func (o *Ollama) deadline() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return llm.DeadlineLocalModel
}

var _ Model = (*Ollama)(nil)

// Name returns "ollama:<model>".
func (o *Ollama) Name() string { return "ollama:" + o.Model }

func (o *Ollama) request(system string, history []Turn) extract.OllamaChatRequest {
	req := extract.OllamaChatRequest{Model: o.Model}
	if system != "" {
		req.Messages = append(req.Messages, extract.OllamaMessage{Role: "system", Content: system})
	}
	for _, t := range history {
		req.Messages = append(req.Messages, extract.OllamaMessage{Role: t.Role, Content: t.Content})
	}
	return req
}

// Reply implements [Model] under the chat deadline; a reply cut at the
// token limit is an *llm.MaxTokensError, an empty one an
// *llm.InvalidReplyError.
func (o *Ollama) Reply(ctx context.Context, system string, history []Turn) (Reply, error) {
	ctx, cancel := llm.WithDeadline(ctx, llm.CallTypeChat, o.deadline())
	defer cancel()
	resp, err := extract.OllamaChat(ctx, o.Client, o.URL, o.request(system, history))
	if err != nil {
		return Reply{}, llm.TimeoutCause(ctx, err)
	}
	return o.reply(resp, resp.Message.Content)
}

func (o *Ollama) reply(last extract.OllamaChatResponse, text string) (Reply, error) {
	switch {
	case last.DoneReason == "length":
		return Reply{}, &llm.MaxTokensError{Model: o.Model, OutputTokens: last.EvalCount}
	case strings.TrimSpace(text) == "":
		return Reply{}, &llm.InvalidReplyError{Reason: "empty reply"}
	}
	return Reply{Text: text, Model: o.Model, InputTokens: last.PromptEvalCount, OutputTokens: last.EvalCount}, nil
}

// Stream implements [Model], with the errors of [Ollama.Reply]; the
// deadline bounds the whole stream.
func (o *Ollama) Stream(ctx context.Context, system string, history []Turn, onDelta func(string) error) (Reply, error) {
	ctx, cancel := llm.WithDeadline(ctx, llm.CallTypeChat, o.deadline())
	defer cancel()
	r, err := o.stream(ctx, system, history, onDelta)
	return r, llm.TimeoutCause(ctx, err)
}

func (o *Ollama) stream(ctx context.Context, system string, history []Turn, onDelta func(string) error) (Reply, error) {
	req := o.request(system, history)
	req.Stream = true
	client := o.Client
	if client == nil {
		client = &http.Client{} // no overall timeout: a stream lasts as long as ctx
	}
	resp, err := extract.PostOllama(ctx, client, o.URL, req)
	if err != nil {
		return Reply{}, err
	}
	defer resp.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var chunk extract.OllamaChatResponse
		if err := json.Unmarshal(sc.Bytes(), &chunk); err != nil {
			return Reply{}, fmt.Errorf("ollama stream: %w", err)
		}
		if chunk.Error != "" {
			return Reply{}, &extract.OllamaError{Message: chunk.Error}
		}
		if chunk.Message.Content != "" {
			b.WriteString(chunk.Message.Content)
			if err := onDelta(chunk.Message.Content); err != nil {
				return Reply{}, err
			}
		}
		if chunk.Done {
			return o.reply(chunk, b.String())
		}
	}
	if err := sc.Err(); err != nil {
		return Reply{}, fmt.Errorf("ollama stream: %w", err)
	}
	return Reply{}, &extract.OllamaError{Message: "stream ended before done"}
}

// NewModel returns the chat model a setting names: "haiku", "sonnet",
// "opus", "claude:<id>" (Claude, needs a key) or "ollama:<name>". An empty
// spec means sonnet.
func NewModel(spec string, client *llm.Client, ollamaURL string) (Model, error) {
	name, arg, _ := strings.Cut(strings.TrimSpace(spec), ":")
	switch strings.ToLower(name) {
	case "", "haiku", "sonnet", "opus":
		tier := llm.Tier(strings.ToLower(name))
		if tier == "" {
			tier = llm.Sonnet
		}
		return &Claude{Client: client, Tier: tier}, nil
	case "claude":
		if arg == "" {
			return nil, errors.New("chat model claude:<model id>: model id missing")
		}
		return &Claude{Client: client, Model: arg}, nil
	case "ollama":
		if arg == "" {
			return nil, errors.New("chat model ollama:<name>: model name missing")
		}
		return &Ollama{URL: ollamaURL, Model: arg}, nil
	}
	return nil, fmt.Errorf("unknown chat model %q: use haiku, sonnet, opus, claude:<id> or ollama:<name>", spec)
}
