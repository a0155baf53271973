package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/paige-dev/paige/internal/redact"
)

// maxPauseContinuations bounds how often Call resends a paused turn
// (stop_reason "pause_turn": a long server-tool turn the API hands back).
const maxPauseContinuations = 3

// Request is one structured call. System and User are required.
type Request struct {
	CallType  string     // e.g. "coach_agent", "learn_extract"; recorded in api_call_log
	SessionID string     // optional; recorded
	Tier      Tier       // default Sonnet
	Model     string     // optional explicit model id, overrides Tier
	System    string     // system prompt
	User      string     // the one user message
	MaxTokens int        // default DefaultMaxTokens
	WebSearch *WebSearch // optional connector tool web_search_20250305 (D83)
	// Tools are further server or connector tool definitions (FR-083,
	// FR-181, D83), each one entry of the API's "tools" array sent exactly
	// as given, after the web search tool: web_fetch, code_execution, an
	// mcp_toolset, ... Client tools (which need a tool_use loop) do not
	// belong here: Call answers with one structured reply.
	Tools []json.RawMessage
	// MCPServers are remote MCP servers for the MCP connector: sent as
	// "mcp_servers", each with its "mcp_toolset" entry in tools, under the
	// anthropic-beta header MCPConnectorBeta.
	MCPServers []MCPServer
	// Timeout bounds the whole call, retries included; zero means the
	// deadline of CallType ([Client.Deadline]).
	Timeout time.Duration
}

// WebSearch enables the API's server-side web search tool. MaxUses zero
// leaves the API's default.
type WebSearch struct{ MaxUses int }

// MCPConnectorBeta is the anthropic-beta value sent with MCPServers.
const MCPConnectorBeta = "mcp-client-2025-11-20"

// MCPServer is one remote MCP server reached by the API's MCP connector.
// Name and an https URL are required; AllowedTools, when set, enables only
// those tools of the server.
type MCPServer struct {
	Name               string
	URL                string
	AuthorizationToken string // OAuth bearer token, if the server needs one
	AllowedTools       []string
}

// Result describes a successful call.
type Result struct {
	Model                     string
	StopReason                string
	InputTokens, OutputTokens int64
	// CacheReadTokens and CacheWriteTokens are the prompt-cache tokens the
	// API reported (zero unless a prompt is cached).
	CacheReadTokens, CacheWriteTokens int64
	CostUSD                           float64
	CostKnown                         bool // false: the model has no known price; CostUSD is 0 and means nothing
	Latency                           time.Duration
	InputHash                         string
}

// Call sends req with output_config.format = the JSON Schema of T (see
// [SchemaFor]), validates the reply text against the schema and decodes it
// into T, retrying transient failures under the Client's [RetryPolicy].
// Errors: [ErrNoModel] without an API key (no HTTP request, not recorded);
// the typed API errors of [WrapError] (*[RateLimitError], *[OverloadedError],
// *[AuthError], *[InvalidRequestError], *[ServerError], each unwrapping to
// *[APIError]); *[ConnectionError]; *[RefusalError]; *[MaxTokensError];
// *[InvalidReplyError]; a *[TimeoutError] when the call's deadline passes
// (see [Client.Deadline]; it bounds every attempt and pause together);
// context errors when ctx ends. Every attempt that gets past the key check
// is recorded through the CallLogger.
func Call[T any](ctx context.Context, c *Client, req Request) (T, Result, error) {
	ctx, cancel := c.withRequestDeadline(ctx, req)
	defer cancel()
	var (
		out T
		res Result
	)
	err := c.Retry(ctx, req.CallType, func(ctx context.Context) (err error) {
		out, res, err = call[T](ctx, c, req)
		return err
	})
	return out, res, TimeoutCause(ctx, err)
}

// withRequestDeadline bounds ctx by req.Timeout or the call type's deadline.
func (c *Client) withRequestDeadline(ctx context.Context, req Request) (context.Context, context.CancelFunc) {
	if req.Timeout > 0 {
		return WithDeadline(ctx, req.CallType, req.Timeout)
	}
	return c.WithDeadline(ctx, req.CallType)
}

// call is one attempt of Call, without the deadline.
func call[T any](ctx context.Context, c *Client, req Request) (T, Result, error) {
	var out T
	if !c.Available() {
		return out, Result{}, ErrNoModel
	}
	model := req.Model
	if model == "" {
		model = c.Model(req.Tier)
	}
	res := Result{Model: model, InputHash: InputHash(req.User)}
	start := c.now()
	schema, err := SchemaFor[T]()
	if err == nil {
		err = checkRequest(req)
	}
	if err == nil {
		res, err = c.send(ctx, req, res, schema, &out)
	}
	res.Latency = c.now().Sub(start)
	c.record(ctx, req, res, start, err)
	if err != nil {
		var zero T
		return zero, Result{Model: model, InputHash: res.InputHash}, err
	}
	return out, res, nil
}

func checkRequest(req Request) error {
	switch {
	case strings.TrimSpace(req.User) == "":
		return errors.New("llm: empty user message")
	case req.MaxTokens < 0:
		return errors.New("llm: negative max_tokens")
	}
	for i, t := range req.Tools {
		var def struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &def) != nil || def.Type == "" {
			return fmt.Errorf("llm: tool %d is not a JSON object with a type", i)
		}
	}
	for i, s := range req.MCPServers {
		if s.Name == "" || !strings.HasPrefix(s.URL, "https://") {
			return fmt.Errorf("llm: MCP server %d needs a name and an https URL", i)
		}
	}
	return nil
}

// send runs the API exchange and fills res; out receives the decoded reply.
func (c *Client) send(ctx context.Context, req Request, res Result, schema *Schema, out any) (Result, error) {
	params := c.params(req, res.Model, schema)
	opts := mcpOptions(req.MCPServers)
	var msg *anthropic.Message
	for i := 0; ; i++ {
		m, err := c.sdk.Messages.New(ctx, params, opts...)
		if err != nil {
			return res, WrapError(err)
		}
		msg = m
		res.InputTokens += m.Usage.InputTokens
		res.OutputTokens += m.Usage.OutputTokens
		res.CacheReadTokens += m.Usage.CacheReadInputTokens
		res.CacheWriteTokens += m.Usage.CacheCreationInputTokens
		res.StopReason = string(m.StopReason)
		if m.StopReason != anthropic.StopReasonPauseTurn || i == maxPauseContinuations {
			break
		}
		params.Messages = append(params.Messages, m.ToParam())
	}
	text := replyText(msg)
	switch msg.StopReason {
	case anthropic.StopReasonRefusal:
		return res, &RefusalError{Model: res.Model, Text: text}
	case anthropic.StopReasonMaxTokens:
		return res, &MaxTokensError{Model: res.Model, MaxTokens: int(params.MaxTokens), OutputTokens: msg.Usage.OutputTokens}
	case anthropic.StopReasonEndTurn, anthropic.StopReasonStopSequence:
	default:
		return res, &InvalidReplyError{Text: text, Reason: "unexpected stop_reason " + string(msg.StopReason)}
	}
	if err := schema.Validate(text, out); err != nil {
		return res, err
	}
	res.CostUSD, res.CostKnown = Cost(res.Model, Usage{Input: res.InputTokens, Output: res.OutputTokens,
		CacheRead: res.CacheReadTokens, CacheWrite: res.CacheWriteTokens})
	if !res.CostKnown {
		c.logger.Warn("llm: no known price for model, cost recorded as unknown", "model", res.Model)
	}
	return res, nil
}

// params builds the Messages API request of req. The user message is
// redacted here, the one point every structured call passes, so no secret
// a caller forgot reaches the model. The system prompt is not: it is the
// program's own text (which may well mention "<private>" or "password =")
// around data redacted where it was stored.
func (c *Client) params(req Request, model string, schema *Schema) anthropic.MessageNewParams {
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = DefaultMaxTokens
	}
	p := anthropic.MessageNewParams{
		Model:        anthropic.Model(model),
		MaxTokens:    int64(maxTokens),
		Messages:     []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(redact.String(req.User)))},
		OutputConfig: anthropic.OutputConfigParam{Format: anthropic.JSONOutputFormatParam{Schema: schema.param}},
	}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	if req.WebSearch != nil {
		ws := &anthropic.WebSearchTool20250305Param{}
		if req.WebSearch.MaxUses > 0 {
			ws.MaxUses = anthropic.Int(int64(req.WebSearch.MaxUses))
		}
		p.Tools = []anthropic.ToolUnionParam{{OfWebSearchTool20250305: ws}}
	}
	for _, raw := range req.Tools {
		p.Tools = append(p.Tools, param.Override[anthropic.ToolUnionParam](raw))
	}
	for _, s := range req.MCPServers {
		p.Tools = append(p.Tools, param.Override[anthropic.ToolUnionParam](mcpToolset(s)))
	}
	return p
}

// mcpToolset returns the tools entry enabling server s's tools.
func mcpToolset(s MCPServer) json.RawMessage {
	ts := map[string]any{"type": "mcp_toolset", "mcp_server_name": s.Name}
	if len(s.AllowedTools) > 0 {
		configs := map[string]any{}
		for _, t := range s.AllowedTools {
			configs[t] = map[string]bool{"enabled": true}
		}
		ts["default_config"] = map[string]bool{"enabled": false}
		ts["configs"] = configs
	}
	b, _ := json.Marshal(ts)
	return b
}

// mcpOptions returns the request options sending servers as mcp_servers
// with the connector's beta header; none without servers.
func mcpOptions(servers []MCPServer) []option.RequestOption {
	if len(servers) == 0 {
		return nil
	}
	list := make([]map[string]string, 0, len(servers))
	for _, s := range servers {
		m := map[string]string{"type": "url", "name": s.Name, "url": s.URL}
		if s.AuthorizationToken != "" {
			m["authorization_token"] = s.AuthorizationToken
		}
		list = append(list, m)
	}
	return []option.RequestOption{option.WithJSONSet("mcp_servers", list), option.WithHeaderAdd("anthropic-beta", MCPConnectorBeta)}
}

// replyText returns the text of the final answer: the text blocks after the
// last non-text block (web search turns interleave tool blocks and text).
func replyText(m *anthropic.Message) string {
	start := 0
	for i, b := range m.Content {
		if b.Type != "text" {
			start = i + 1
		}
	}
	var sb strings.Builder
	for _, b := range m.Content[start:] {
		sb.WriteString(b.Text)
	}
	return sb.String()
}

// record writes the call to the CallLogger: real figures on success (the
// cost unknown for a model without a price); latency −1, zero tokens and
// cost on failure (FR-091).
func (c *Client) record(ctx context.Context, req Request, res Result, start time.Time, err error) {
	if c.log == nil {
		return
	}
	rec := CallRecord{
		SessionID: req.SessionID, CallType: req.CallType, Model: res.Model, InputHash: res.InputHash,
		LatencyMs: -1, Err: err, At: start.UTC(),
	}
	if err == nil {
		rec.LatencyMs = max(1, res.Latency.Milliseconds())
		rec.InputTokens, rec.OutputTokens = res.InputTokens, res.OutputTokens
		rec.CostUSD, rec.CostUnknown = res.CostUSD, !res.CostKnown
	}
	if lerr := c.log.LogAPICall(context.WithoutCancel(ctx), rec); lerr != nil {
		c.logger.Warn("llm: recording api call failed", "call_type", req.CallType, "err", lerr)
	}
}
