// Package agent runs GhostPath's agentic loop: Claude decides which tool to
// call, the tools enforce the guardrails, and every step becomes an SSE event.
//
// # Loop
//
// One [Runner.Run] continues a session whose message history ends with a
// user message. Each iteration calls the Messages API through the resilient
// [Client] (model claude-opus-4-6 by default, max_tokens 16384, the 17
// custom tools plus the built-in web_search with max_uses 5), adds the
// tokens to the session's total and emits context_usage, forwards text
// (agent_text), tool calls (tool_call, also for server_tool_use) and web
// search results (tool_result). stop_reason pause_turn continues the loop
// with the partial turn. Client tool calls run through the dispatch table;
// a failing tool becomes a tool_error event and an is_error tool result,
// never the end of the loop. Every call is written to tool_calls.
// present_round, ask_user and generate_final_spec pause the loop: their
// prompt (premises, ask_user, final_spec then spec_file_ready) is emitted and
// kept in the state as the pending prompt, and the run ends with done
// {awaiting_input: true}. A turn without tool use ends with done. After 50
// iterations the run fails with AGENT_LOOP_EXCEEDED.
//
// # Persistence and cancellation
//
// State, history and token total are saved after every turn, always at a
// point where the history ends with a user message, so a run stopped by a
// cancel, a crash or a shutdown resumes by running again. Cancelling ctx
// stops the run between steps (a model call in flight is aborted); writes
// use a context detached from the cancel so a stop never loses a turn.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/tools"
)

// Defaults of the runner.
const (
	DefaultModel     = config.DefaultModelOpus
	DefaultMaxTokens = 16384
	writeTimeout     = time.Minute // bounds each write; generous so load only slows a run
	previewLen       = 300
)

// Options configure a [Runner]. A zero Options uses the defaults.
type Options struct {
	Model         string // if empty, DefaultModel
	MaxTokens     int64  // if zero, DefaultMaxTokens
	MaxIterations int    // if zero, core.MaxIterations
	// SpecDir is where final specs are written (DATA_DIR/ghostpath/specs).
	SpecDir string
	// Offline makes every run fail with ANTHROPIC_API_ERROR "no model
	// configured" without calling the API (no ANTHROPIC_API_KEY).
	Offline bool
	Logger  *slog.Logger
	Now     func() time.Time
}

// Runner runs sessions. It is safe for concurrent use by runs of different
// sessions; one session must have at most one run at a time.
type Runner struct {
	client   *Client
	repo     core.Repository
	dispatch *tools.Dispatch
	tools    []anthropic.ToolUnionParam
	o        Options
}

// NewRunner returns a runner calling Claude through client and persisting
// through repo.
func NewRunner(client *Client, repo core.Repository, opts *Options) *Runner {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Model == "" {
		o.Model = DefaultModel
	}
	if o.MaxTokens == 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = core.MaxIterations
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Runner{client: client, repo: repo, dispatch: tools.NewDispatch(), tools: ToolParams(), o: o}
}

// SpecURL is the download URL of a session's final spec.
func SpecURL(sessionID string) string { return "/api/v1/sessions/" + sessionID + "/spec" }

// ToolParams returns the 17 custom tools and web_search in SDK form.
func ToolParams() []anthropic.ToolUnionParam {
	defs := tools.All()
	out := make([]anthropic.ToolUnionParam, 0, len(defs)+1)
	for _, d := range defs {
		req, _ := d.InputSchema["required"].([]string)
		out = append(out, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name: d.Name, Description: anthropic.String(d.Description),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: d.InputSchema["properties"], Required: req},
		}})
	}
	return append(out, anthropic.ToolUnionParam{OfWebSearchTool20250305: &anthropic.WebSearchTool20250305Param{
		MaxUses: anthropic.Int(tools.WebSearchMaxUses),
	}})
}

// Outcome summarises how a run ended.
type Outcome struct {
	Iterations int
	Paused     bool // a pausing tool ran; the session waits for the user
	Errored    bool // an error event was emitted
	Cancelled  bool // ctx was cancelled
}

// run is the mutable state of one Run.
type run struct {
	sess   *core.Session
	hist   *history
	emit   func(core.Event)
	env    *tools.Env
	wctx   context.Context // detached from cancellation, for writes
	iter   int
	paused bool
	calls  []core.ToolCall // recorded, not yet persisted
}

// Run continues sess until it pauses, finishes, fails or ctx is cancelled,
// emitting events in order; the last event is always done. sess is updated
// in place (State, Messages, TotalTokensUsed, Status).
func (r *Runner) Run(ctx context.Context, sess *core.Session, emit func(core.Event)) Outcome {
	hist, err := loadHistory(sess.Messages)
	if err != nil {
		r.o.Logger.Error("ghostpath: corrupt message history", "session_id", sess.ID, "err", err)
		return r.fail(emit, core.Internal(), Outcome{})
	}
	if sess.State.Pending != nil {
		for _, e := range PendingEvents(sess) {
			emit(e)
		}
		return Outcome{Paused: true}
	}
	if specMissing(sess, hist) {
		// Resolved, but the model ended its turn without the spec: ask for it.
		if err := hist.append(anthropic.NewUserMessage(anthropic.NewTextBlock(core.SpecRequestMessage(sess.State.Winner)))); err != nil {
			return r.fail(emit, core.Internal(), Outcome{})
		}
	}
	if !needsModel(sess, hist) {
		emit(core.Done(false, false))
		return Outcome{}
	}
	defer func() { sess.Messages = hist.JSON() }()
	wctx := context.WithoutCancel(ctx)
	rs := &run{sess: sess, hist: hist, wctx: wctx, env: &tools.Env{
		SessionID: sess.ID, Problem: sess.Problem, State: &sess.State, Repo: r.repo,
		SpecDir: r.o.SpecDir, SpecURL: SpecURL(sess.ID), Now: r.o.Now, Log: r.o.Logger,
	}}
	var runErr *core.RunError
	rs.emit = func(e core.Event) {
		if d, ok := e.Data.(core.SSEError); ok && e.Type == core.EventError {
			runErr = &core.RunError{Code: d.Code, APICode: d.APICode, Message: d.Message}
		}
		emit(e)
	}
	if r.o.Offline {
		e := core.NewError(core.CodeAnthropicAPI, "Anthropic API error (no_model): %s", config.ErrNoModel).
			ForPeople("GhostPath needs Claude, and Paige runs without a model (PAIGE_OFFLINE). Set ANTHROPIC_API_KEY and restart Paige.")
		e.Context.APICode = "no_model"
		out := r.fail(rs.emit, e.WithSession(sess.ID), Outcome{})
		// It failed: a later start with a model must not spend on it unasked.
		r.setRun(rs, core.RunFailed, runErr)
		return out
	}
	r.setRun(rs, core.RunRunning, nil)
	out := r.loop(ctx, rs)
	switch {
	case out.Cancelled && errors.As(context.Cause(ctx), new(*core.Error)):
		// The server stopped the run: it stays running, to resume at start.
	case out.Cancelled:
		r.setRun(rs, core.RunCancelled, nil)
	case out.Errored:
		r.setRun(rs, core.RunFailed, runErr)
	default:
		r.setRun(rs, core.RunNone, nil)
	}
	return out
}

// setRun records what the run is doing (or left behind) in the session's
// state and persists it with whatever the run has not saved yet.
func (r *Runner) setRun(rs *run, st core.RunState, e *core.RunError) {
	rs.sess.State.Run, rs.sess.State.RunAt, rs.sess.State.RunError = st, r.o.Now().UTC(), e
	r.persist(rs)
}

// loop runs iterations until the run ends; see [Runner.Run].
func (r *Runner) loop(ctx context.Context, rs *run) Outcome {
	for rs.iter < r.o.MaxIterations {
		rs.iter++
		if out, done := r.iterate(ctx, rs); done {
			return out
		}
	}
	r.o.Logger.Error("ghostpath: agent loop exceeded", "session_id", rs.sess.ID, "iterations", rs.iter)
	e := core.NewError(core.CodeAgentLoopExceeded, "Agent exceeded maximum iteration limit (%d)", r.o.MaxIterations).
		ForPeople(fmt.Sprintf("The agent took %d steps without reaching a round or a question, so Paige stopped it. "+
			"Everything so far is saved: resume the session to let it try again.", r.o.MaxIterations))
	return r.fail(rs.emit, e.WithSession(rs.sess.ID), Outcome{Iterations: rs.iter})
}

// PendingEvents returns what a client streaming a paused session receives
// instead of a new run: context usage, the pending prompt (plus
// spec_file_ready for a final spec) and done {awaiting_input: true}.
func PendingEvents(s *core.Session) []core.Event {
	evs := []core.Event{{Type: core.EventContextUsage, Data: core.ComputeContextUsage(s.TotalTokensUsed, s.State.RoundNumber)}}
	if p := s.State.Pending; p != nil {
		evs = append(evs, *p)
		if p.Type == core.EventFinalSpec {
			evs = append(evs, core.Event{Type: core.EventSpecFileReady, Data: core.SpecFileData{DownloadURL: SpecURL(s.ID)}})
		}
	}
	return append(evs, core.Done(false, s.State.Pending != nil))
}

func (r *Runner) fail(emit func(core.Event), e *core.Error, out Outcome) Outcome {
	emit(e.SSE())
	emit(core.Done(true, false))
	out.Errored = true
	return out
}

// iterate runs one model call and its tools; done reports the run ended.
func (r *Runner) iterate(ctx context.Context, rs *run) (Outcome, bool) {
	if ctx.Err() != nil {
		return r.cancelled(ctx, rs), true
	}
	resp, err := r.client.Create(ctx, anthropic.MessageNewParams{
		Model: anthropic.Model(r.o.Model), MaxTokens: r.o.MaxTokens,
		System: []anthropic.TextBlockParam{{Text: SystemPrompt}},
		Tools:  r.tools, Messages: rs.hist.params,
	})
	if err != nil {
		if ctx.Err() != nil {
			return r.cancelled(ctx, rs), true
		}
		ce, ok := err.(*core.Error)
		if !ok {
			ce = core.NewError(core.CodeAnthropicAPI, "Anthropic API error (unknown)").
				ForPeople("The call to Claude failed. The details are in Paige's server log; resume the session to try again.")
			ce.Context.APICode = "unknown"
		}
		// The cause (the API's own error body) is logged, never sent.
		r.o.Logger.Error("ghostpath: anthropic call failed", "session_id", rs.sess.ID, "err", err, "cause", errors.Unwrap(err))
		return r.fail(rs.emit, ce.WithSession(rs.sess.ID), Outcome{Iterations: rs.iter}), true
	}
	rs.sess.TotalTokensUsed += resp.Usage.InputTokens + resp.Usage.OutputTokens
	if n := resp.Usage.ServerToolUse.WebSearchRequests; n > 0 {
		r.o.Logger.Info("ghostpath: web searches", "session_id", rs.sess.ID, "web_search_requests", n)
	}
	rs.env.TokensUsed = rs.sess.TotalTokensUsed
	rs.emit(core.Event{Type: core.EventContextUsage, Data: core.ComputeContextUsage(rs.sess.TotalTokensUsed, rs.sess.State.RoundNumber)})
	if e := stopError(resp, r.o.MaxTokens); e != nil {
		// The turn is not kept: the history still ends with the user's
		// message, so streaming again retries it.
		r.o.Logger.Error("ghostpath: unusable model turn", "session_id", rs.sess.ID, "stop_reason", string(resp.StopReason))
		r.persist(rs)
		return r.fail(rs.emit, e.WithSession(rs.sess.ID), Outcome{Iterations: rs.iter}), true
	}
	hasToolUse := forwardBlocks(resp, rs.emit)
	r.recordServerTools(rs, resp)
	if err := rs.hist.append(resp.ToParam()); err != nil {
		return r.fail(rs.emit, core.Internal(), Outcome{Iterations: rs.iter}), true
	}
	rs.sess.State.TurnPaused = resp.StopReason == anthropic.StopReasonPauseTurn
	if rs.sess.State.TurnPaused {
		// A server tool is still working: save the turn (and its paid web
		// searches) before letting Claude continue it.
		r.persist(rs)
		return Outcome{}, false
	}
	if !hasToolUse {
		r.persist(rs)
		rs.emit(core.Done(false, false))
		return Outcome{Iterations: rs.iter}, true
	}
	results := r.executeTools(rs, resp)
	if err := rs.hist.append(anthropic.NewUserMessage(results...)); err != nil {
		return r.fail(rs.emit, core.Internal(), Outcome{Iterations: rs.iter}), true
	}
	r.persist(rs)
	if rs.paused {
		rs.emit(core.Done(false, true))
		return Outcome{Iterations: rs.iter, Paused: true}, true
	}
	return Outcome{}, false
}

// cancelled ends a run whose ctx was cancelled: done {cancelled: true}, or,
// when ctx was cancelled with a *core.Error cause (a server shutdown), that
// error and done {error: true}.
func (r *Runner) cancelled(ctx context.Context, rs *run) Outcome {
	r.o.Logger.Info("ghostpath: run cancelled", "session_id", rs.sess.ID, "iterations", rs.iter)
	var ce *core.Error
	if errors.As(context.Cause(ctx), &ce) {
		rs.emit(ce.SSE())
		rs.emit(core.Done(true, false))
		return Outcome{Iterations: rs.iter, Cancelled: true, Errored: true}
	}
	rs.emit(core.Event{Type: core.EventDone, Data: core.DoneData{Error: false, AwaitingInput: false, Cancelled: true}})
	return Outcome{Iterations: rs.iter, Cancelled: true}
}

// stopError returns the error of a turn that cannot be used: a refusal, or
// a reply cut at max_tokens (its tool input may be incomplete JSON).
func stopError(resp *anthropic.Message, maxTokens int64) *core.Error {
	switch resp.StopReason {
	case anthropic.StopReasonRefusal:
		e := core.NewError(core.CodeAnthropicAPI, "Anthropic API error (refusal): Claude declined to continue this session").
			ForPeople("Claude declined to continue this session. Try rephrasing the problem in a new session.")
		e.Context.APICode = "refusal"
		return e
	case anthropic.StopReasonMaxTokens:
		e := core.NewError(core.CodeAnthropicAPI,
			"Anthropic API error (max_tokens): Claude's turn was cut off at the %d-token limit; stream the session again to retry", maxTokens).
			ForPeople("Claude's answer was too long and got cut off, so Paige did not use it. Resume the session to ask again.")
		e.Context.APICode = "max_tokens"
		return e
	}
	return nil
}

// forwardBlocks emits agent_text, tool_call and tool_result events for the
// response's blocks and reports whether it holds client tool calls.
func forwardBlocks(resp *anthropic.Message, emit func(core.Event)) bool {
	hasToolUse := false
	for _, b := range resp.Content {
		switch b.Type {
		case "text":
			emit(core.Event{Type: core.EventAgentText, Data: b.Text})
		case "tool_use":
			hasToolUse = true
			emit(core.Event{Type: core.EventToolCall, Data: core.ToolCallData{Tool: b.Name, InputPreview: preview(b.Input)}})
		case "server_tool_use":
			emit(core.Event{Type: core.EventToolCall, Data: core.ToolCallData{Tool: b.Name, InputPreview: preview(b.Input)}})
		case "web_search_tool_result":
			emit(core.Event{Type: core.EventToolResult, Data: webSearchSummary(b.RawJSON())})
		}
	}
	return hasToolUse
}

func preview(input json.RawMessage) string {
	s := string(input)
	if utf8.RuneCountInString(s) <= previewLen {
		return s
	}
	return string([]rune(s)[:previewLen])
}

func webSearchSummary(raw string) string {
	var block struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal([]byte(raw), &block)
	var results []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(block.Content, &results) != nil {
		return "Web search failed"
	}
	n := 0
	for _, r := range results {
		if r.Type == "web_search_result" {
			n++
		}
	}
	return "Web search returned " + strconv.Itoa(n) + " result(s)"
}

// Offline reports whether the runner has no model (every run would fail).
func (r *Runner) Offline() bool { return r.o.Offline }
