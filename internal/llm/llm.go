// Package llm is Paige's one Claude client: typed calls with structured
// output, model tiers, pricing, error classification, one retry, and a call
// log hook (spec story 7).
//
// # Calls
//
// [Call] sends a system prompt and one user message to the Messages API with
// output_config.format = {type: "json_schema", schema} where the schema is
// generated from the Go response type (see [SchemaFor]). The reply text is
// validated against the full schema and decoded into the type; a reply that
// does not match is an [*InvalidReplyError]. stop_reason "refusal" is a
// [*RefusalError], "max_tokens" a [*MaxTokensError]; "pause_turn" (a long
// server-tool turn) is continued transparently a few times.
//
// Every call that reaches the API, success or failure, is recorded through
// [CallLogger] (failures with latency −1, zero tokens and zero cost, as EC-19
// says). A [Client] without an API key answers every call with [ErrNoModel]
// and makes no HTTP request; such calls are not recorded, because no API call
// happened.
//
// Retries are ours, not the SDK's (the SDK runs with zero retries): one
// [RetryPolicy] per Client, used by [Call] and, through [Client.Retry], by
// every caller of the SDK (learn chat, GhostPath), retries transient errors
// only ([IsTransient]) with the server's retry-after or exponential backoff.
// The spec's "SDK retries automatically" (scenario 7.9) is replaced by these
// logged retries, so every attempt shows up in api_call_log.
//
// Errors are typed: each kind of failure has its own type, matched with
// errors.As ([RateLimitError], [OverloadedError], [AuthError],
// [InvalidRequestError], [ServerError], [ConnectionError], [TimeoutError],
// [RefusalError], [MaxTokensError], [InvalidReplyError]), and [Classify]
// sorts any of them into a [Kind] with a client-safe sentence.
package llm

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/paige-dev/paige/internal/config"
)

// Tier is a model class; the Client maps it to a model id.
type Tier string

// The model tiers. Sonnet is the default.
const (
	Haiku  Tier = "haiku"
	Sonnet Tier = "sonnet"
	Opus   Tier = "opus"
)

// DefaultMaxTokens is the max_tokens sent when a Request leaves it zero (FR-092).
const DefaultMaxTokens = 4096

// DefaultTimeout bounds one HTTP attempt when Options.Timeout is zero (the
// SDK's advice for long requests; web search turns can take minutes).
const DefaultTimeout = 10 * time.Minute

// DefaultBaseURL is the Anthropic API used when Options.BaseURL is empty.
const DefaultBaseURL = "https://api.anthropic.com/"

// ErrNoModel is returned by every call of a Client without an API key.
var ErrNoModel = config.ErrNoModel

// Options configure a Client. A zero Options is valid: an offline client.
type Options struct {
	APIKey     string           // empty: every call returns ErrNoModel (offline mode)
	BaseURL    string           // empty: DefaultBaseURL; tests pass llmtest's URL
	Models     map[Tier]string  // missing tiers use the config defaults
	HTTPClient *http.Client     // nil: the SDK's default client
	Log        CallLogger       // nil: calls are not recorded
	Logger     *slog.Logger     // nil: discard
	Retry      RetryPolicy      // zero fields: the defaults (see RetryPolicy)
	Timeout    time.Duration    // per HTTP attempt; zero means DefaultTimeout
	Now        func() time.Time // nil: time.Now; stamps CallRecord.At and measures latency
	// Deadlines override the deadline of call types (see Deadlines in
	// deadline.go); missing or non-positive entries keep the default.
	Deadlines map[string]time.Duration
}

// Client is the one Anthropic client of a process (FR-093). It is safe for
// concurrent use and holds no per-call state (EC-44).
type Client struct {
	sdk    anthropic.Client
	key    bool
	models map[Tier]string
	log    CallLogger
	logger *slog.Logger
	retry  RetryPolicy
	now    func() time.Time
	// deadlines holds the per-call-type overrides; read-only after New.
	deadlines map[string]time.Duration
}

// New returns a Client for opts. The SDK is built with zero retries (retries
// are the Client's RetryPolicy) and with the key and base URL given explicitly, so the
// process environment does not change where calls go.
func New(opts Options) *Client {
	c := &Client{
		key:       opts.APIKey != "",
		log:       opts.Log,
		logger:    opts.Logger,
		retry:     opts.Retry.withDefaults(),
		now:       opts.Now,
		deadlines: map[string]time.Duration{},
		models: map[Tier]string{
			Haiku:  config.DefaultModelHaiku,
			Sonnet: config.DefaultModelSonnet,
			Opus:   config.DefaultModelOpus,
		},
	}
	for ct, d := range opts.Deadlines {
		c.deadlines[ct] = d
	}
	for t, m := range opts.Models {
		if m != "" {
			c.models[t] = m
		}
	}
	if c.logger == nil {
		c.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if c.now == nil {
		c.now = time.Now
	}
	base := opts.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	sdkOpts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithMaxRetries(0),
		option.WithAPIKey(opts.APIKey),
		option.WithRequestTimeout(timeout),
	}
	if opts.HTTPClient != nil {
		sdkOpts = append(sdkOpts, option.WithHTTPClient(opts.HTTPClient))
	}
	c.sdk = anthropic.NewClient(sdkOpts...)
	return c
}

// FromConfig returns the Client described by cfg: ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL and the PAIGE_MODEL_* tier overrides.
func FromConfig(cfg config.Config, log CallLogger, logger *slog.Logger) *Client {
	return New(Options{
		APIKey:  cfg.AnthropicAPIKey,
		BaseURL: cfg.AnthropicURL,
		Models:  map[Tier]string{Haiku: cfg.ModelHaiku, Sonnet: cfg.ModelSonnet, Opus: cfg.ModelOpus},
		Log:     log,
		Logger:  logger,
	})
}

// Available reports whether an API key is configured.
func (c *Client) Available() bool { return c.key }

// Model returns the model id of tier t; an unknown tier is treated as Sonnet.
func (c *Client) Model(t Tier) string {
	if m, ok := c.models[t]; ok {
		return m
	}
	return c.models[Sonnet]
}

// SDK returns the underlying SDK client for tool-use loops and streaming. It
// has zero retries; check Available first, since without a key the API
// answers 401.
func (c *Client) SDK() *anthropic.Client { return &c.sdk }

// CallLogger records every call, success or failure; coach's api_call_log
// implements it. LogAPICall errors are logged as warnings and never fail the
// call.
type CallLogger interface {
	LogAPICall(ctx context.Context, rec CallRecord) error
}

// CallLoggerFunc adapts a function to CallLogger.
type CallLoggerFunc func(ctx context.Context, rec CallRecord) error

// LogAPICall calls f.
func (f CallLoggerFunc) LogAPICall(ctx context.Context, rec CallRecord) error { return f(ctx, rec) }

// CallRecord is one row of api_call_log.
type CallRecord struct {
	SessionID, CallType, Model, InputHash string
	LatencyMs                             int64 // −1 on failure
	InputTokens, OutputTokens             int64 // zero on failure
	CostUSD                               float64
	// CostUnknown is true when the model has no known price: the row's
	// cost is unknown (NULL), not $0. A failure costs a known 0.
	CostUnknown bool
	Err         error // nil on success
	At          time.Time
}
