package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

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
func (c *Claude) Reply(ctx context.Context, system string, history []Turn) (Reply, error) {
	if !c.Client.Available() {
		return Reply{}, llm.ErrNoModel
	}
	msg, err := c.Client.SDK().Messages.New(ctx, c.params(system, history))
	if err != nil {
		return Reply{}, fmt.Errorf("claude: %w", err)
	}
	return claudeReply(msg), nil
}

// Stream implements [Model].
func (c *Claude) Stream(ctx context.Context, system string, history []Turn, onDelta func(string) error) (Reply, error) {
	if !c.Client.Available() {
		return Reply{}, llm.ErrNoModel
	}
	stream := c.Client.SDK().Messages.NewStreaming(ctx, c.params(system, history))
	defer stream.Close()
	var msg anthropic.Message
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return Reply{}, fmt.Errorf("claude stream: %w", err)
		}
		if d, ok := ev.AsAny().(anthropic.ContentBlockDeltaEvent); ok {
			if t, ok := d.Delta.AsAny().(anthropic.TextDelta); ok && t.Text != "" {
				if err := onDelta(t.Text); err != nil {
					return Reply{}, err
				}
			}
		}
	}
	if err := stream.Err(); err != nil {
		return Reply{}, fmt.Errorf("claude stream: %w", err)
	}
	return claudeReply(&msg), nil
}

func claudeReply(m *anthropic.Message) Reply {
	var b strings.Builder
	for _, blk := range m.Content {
		if blk.Type == "text" {
			b.WriteString(blk.Text)
		}
	}
	return Reply{Text: b.String(), Model: string(m.Model), InputTokens: m.Usage.InputTokens, OutputTokens: m.Usage.OutputTokens}
}

// Ollama is a [Model] on a local Ollama server (POST /api/chat; streaming
// reads its newline-delimited JSON chunks).
type Ollama struct {
	URL    string       // empty means extract.DefaultOllamaURL
	Model  string       // required
	Client *http.Client // nil: 5 minute timeout for whole replies, none for streams (ctx bounds them)
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

// Reply implements [Model].
func (o *Ollama) Reply(ctx context.Context, system string, history []Turn) (Reply, error) {
	resp, err := extract.OllamaChat(ctx, o.Client, o.URL, o.request(system, history))
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: resp.Message.Content, Model: o.Model, InputTokens: resp.PromptEvalCount, OutputTokens: resp.EvalCount}, nil
}

// Stream implements [Model].
func (o *Ollama) Stream(ctx context.Context, system string, history []Turn, onDelta func(string) error) (Reply, error) {
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
	out := Reply{Model: o.Model}
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
			return Reply{}, fmt.Errorf("ollama: %s", chunk.Error)
		}
		if chunk.Message.Content != "" {
			b.WriteString(chunk.Message.Content)
			if err := onDelta(chunk.Message.Content); err != nil {
				return Reply{}, err
			}
		}
		if chunk.Done {
			out.InputTokens, out.OutputTokens = chunk.PromptEvalCount, chunk.EvalCount
			out.Text = b.String()
			return out, nil
		}
	}
	if err := sc.Err(); err != nil {
		return Reply{}, fmt.Errorf("ollama stream: %w", err)
	}
	return Reply{}, errors.New("ollama stream: ended before done")
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
