package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/learn"
	"github.com/paige-dev/paige/internal/llm"
)

// DefaultOllamaURL is where Ollama listens unless configured otherwise.
const DefaultOllamaURL = "http://localhost:11434"

// Ollama extracts with a local Ollama model through POST /api/chat with
// stream false and format set to the JSON schema of [Extraction], so the
// model can only answer in that shape.
type Ollama struct {
	URL    string       // base URL; empty means DefaultOllamaURL
	Model  string       // e.g. "llama3.2"; required
	Client *http.Client // nil means a client with a 5 minute timeout
	Now    func() time.Time
	Log    *slog.Logger // warnings about dropped items; nil means discard
	// Timeout bounds one chunk's call; zero means llm.DeadlineLocalModel.
	Timeout time.Duration
}

func (o *Ollama) deadline() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return llm.DeadlineLocalModel
}

// OllamaError is an error answered by an Ollama server: an HTTP status
// other than 200 (Status set) or an "error" field in its answer. Message
// is the server's text, for logs only: clients get its [llm.Kind]'s message.
type OllamaError struct {
	Status  int // 0 when the error came in a 200 answer or a stream chunk
	Message string
}

// Error gives the status and the server's message.
func (e *OllamaError) Error() string {
	if e.Status == 0 {
		return "ollama: " + e.Message
	}
	return fmt.Sprintf("ollama: %d: %s", e.Status, e.Message)
}

// ModelErrorKind classifies the error by status (see llm.StatusKind); an
// error inside an answer is llm.KindUnavailable.
func (e *OllamaError) ModelErrorKind() llm.Kind {
	if e.Status == 0 {
		return llm.KindUnavailable
	}
	return llm.StatusKind(e.Status)
}

// ollamaConnError is a failure to reach the Ollama server at all.
type ollamaConnError struct{ err error }

func (e *ollamaConnError) Error() string            { return "ollama: " + e.err.Error() }
func (e *ollamaConnError) Unwrap() error            { return e.err }
func (e *ollamaConnError) ModelErrorKind() llm.Kind { return llm.KindUnavailable }

var _ Extractor = (*Ollama)(nil)

// Name returns "ollama:<model>".
func (o *Ollama) Name() string { return "ollama:" + o.Model }

// ExtractionSchema is the JSON schema sent as Ollama's format.
var ExtractionSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"items": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"type":       map[string]any{"type": "string", "enum": []string{"preference", "fact", "rule", "procedure", "correction", "decision"}},
					"content":    map[string]any{"type": "string"},
					"confidence": map[string]any{"type": "number", "minimum": 0, "maximum": 1},
					"evidence":   map[string]any{"type": "string"},
					"entities":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				},
				"required": []string{"type", "content", "confidence", "evidence", "entities"},
			},
		},
	},
	"required": []string{"items"},
}

// OllamaMessage is one chat message of the Ollama API.
type OllamaMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// OllamaChatRequest is the body of POST /api/chat.
type OllamaChatRequest struct {
	Model    string          `json:"model"`
	Messages []OllamaMessage `json:"messages"`
	Stream   bool            `json:"stream"`
	Format   any             `json:"format,omitempty"`
	Options  map[string]any  `json:"options,omitempty"`
}

// OllamaChatResponse is one answer (or one stream chunk) of POST /api/chat.
type OllamaChatResponse struct {
	Model           string        `json:"model"`
	Message         OllamaMessage `json:"message"`
	Done            bool          `json:"done"`
	PromptEvalCount int64         `json:"prompt_eval_count"`
	EvalCount       int64         `json:"eval_count"`
	// DoneReason is "stop", or "length" when the answer was cut at the
	// token limit (an [llm.MaxTokensError] for callers).
	DoneReason string `json:"done_reason,omitempty"`
	Error      string `json:"error,omitempty"`
}

// Extract implements [Extractor].
func (o *Ollama) Extract(ctx context.Context, turns []learn.Turn, source string) ([]learn.Entry, error) {
	if o.Model == "" {
		return nil, errors.New("ollama: no model name (use --model ollama:<name>)")
	}
	req := OllamaChatRequest{
		Model: o.Model,
		Messages: []OllamaMessage{
			{Role: "system", Content: Prompt},
			{Role: "user", Content: "TRANSCRIPT:\n" + FormatTranscript(turns)},
		},
		Format:  ExtractionSchema,
		Options: map[string]any{"temperature": 0},
	}
	ctx, cancel := llm.WithDeadline(ctx, llm.CallTypeExtract, o.deadline())
	defer cancel()
	resp, err := OllamaChat(ctx, o.Client, o.URL, req)
	if err != nil {
		return nil, llm.TimeoutCause(ctx, err)
	}
	if resp.DoneReason == "length" {
		return nil, &llm.MaxTokensError{Model: o.Model, OutputTokens: resp.EvalCount}
	}
	items, err := decodeItems(resp.Message.Content, o.Name(), o.Log) // a bad item is dropped, not the answer
	if err != nil {
		return nil, &llm.InvalidReplyError{Text: resp.Message.Content, Reason: "ollama answer is not the extraction JSON", Err: err}
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	return Entries(items, source, now()), nil
}

// OllamaChat sends a non-streaming chat request to the Ollama server at
// base and returns its answer. HTTP and API errors are *[OllamaError]s
// carrying the server's message (for logs).
func OllamaChat(ctx context.Context, client *http.Client, base string, req OllamaChatRequest) (OllamaChatResponse, error) {
	req.Stream = false
	resp, err := PostOllama(ctx, client, base, req)
	if err != nil {
		return OllamaChatResponse{}, err
	}
	defer resp.Body.Close()
	var out OllamaChatResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(&out); err != nil {
		return out, fmt.Errorf("ollama: decode answer: %w", err)
	}
	if out.Error != "" {
		return out, &OllamaError{Message: out.Error}
	}
	return out, nil
}

// PostOllama posts req to base/api/chat and returns the response when its
// status is 200; the caller closes the body.
func PostOllama(ctx context.Context, client *http.Client, base string, req OllamaChatRequest) (*http.Response, error) {
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Minute}
	}
	if base == "" {
		base = DefaultOllamaURL
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(base, "/")+"/api/chat", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("ollama: %w", err)
		}
		return nil, &ollamaConnError{err}
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(msg, &e) == nil && e.Error != "" {
			msg = []byte(e.Error)
		}
		return nil, &OllamaError{Status: resp.StatusCode, Message: strings.TrimSpace(string(msg))}
	}
	return resp, nil
}
