package agent

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/tools"
)

// executeTools runs the response's client tool calls in order and returns
// their tool_result blocks. A pausing tool sets rs.paused.
func (r *Runner) executeTools(rs *run, resp *anthropic.Message) []anthropic.ContentBlockParamUnion {
	var results []anthropic.ContentBlockParamUnion
	for _, b := range resp.Content {
		if b.Type != "tool_use" {
			continue
		}
		res, took := r.execute(rs, b.Name, b.Input)
		r.record(rs, b.Name, b.Input, res, took)
		r.forwardResult(rs, b.Name, res)
		out, _ := json.Marshal(res.Output)
		results = append(results, anthropic.NewToolResultBlock(b.ID, string(out), res.Failed()))
	}
	return results
}

// execute runs one tool with a context detached from cancellation, so a
// tool either completes or never starts.
func (r *Runner) execute(rs *run, name string, input json.RawMessage) (tools.Result, time.Duration) {
	ctx, cancel := context.WithTimeout(rs.wctx, writeTimeout)
	defer cancel()
	start := time.Now()
	res := r.dispatch.Execute(ctx, rs.env, name, input)
	return res, time.Since(start)
}

func (r *Runner) forwardResult(rs *run, name string, res tools.Result) {
	switch {
	case res.Failed():
		kind, msg := core.ToolErrorView(name, res.Err.Code)
		lvl := slog.LevelWarn
		if kind == core.KindGuardrail {
			lvl = slog.LevelInfo
		}
		r.o.Logger.Log(rs.wctx, lvl, "ghostpath: tool error", "session_id", rs.sess.ID, "tool_name", name,
			"error_code", res.Err.Code, "kind", kind, "detail", res.Message())
		rs.emit(core.Event{Type: core.EventToolError, Data: core.ToolErrorData{Tool: name, ErrorCode: res.Err.Code, Message: msg, Kind: kind}})
	case res.Pause != nil:
		rs.paused = true
		rs.emit(*res.Pause)
		switch res.Pause.Type {
		case core.EventFinalSpec:
			rs.emit(core.Event{Type: core.EventSpecFileReady, Data: core.SpecFileData{DownloadURL: SpecURL(rs.sess.ID)}})
		case core.EventPremises:
			r.activate(rs)
		}
	case res.Err != nil: // a rejection or warning (TOO_OBVIOUS...): a sentence for people
		_, msg := core.ToolErrorView(name, res.Err.Code)
		rs.emit(core.Event{Type: core.EventToolResult, Data: msg})
	default:
		rs.emit(core.Event{Type: core.EventToolResult, Data: res.Message()})
	}
}

// activate moves a created session to active at its first round.
func (r *Runner) activate(rs *run) {
	if rs.sess.Status != core.StatusCreated {
		return
	}
	ctx, cancel := context.WithTimeout(rs.wctx, writeTimeout)
	defer cancel()
	// Conditional: a cancel that raced this run keeps the session cancelled.
	ok, err := r.repo.SetStatusIf(ctx, rs.sess.ID, core.StatusCreated, core.StatusActive)
	if err != nil {
		r.o.Logger.Error("ghostpath: activate session", "session_id", rs.sess.ID, "err", err)
		return
	}
	if ok {
		rs.sess.Status = core.StatusActive
	}
}

// record queues the tool call; persist writes it with the turn.
func (r *Runner) record(rs *run, name string, input json.RawMessage, res tools.Result, took time.Duration) {
	out, _ := json.Marshal(res.Output)
	tc := core.ToolCall{SessionID: rs.sess.ID, ToolName: name, Input: input, Output: out, Status: res.Status(),
		Iteration: rs.iter, DurationMs: took.Milliseconds(), CreatedAt: r.o.Now()}
	if res.Err != nil {
		tc.ErrorCode = string(res.Err.Code)
	}
	rs.calls = append(rs.calls, tc)
}

// recordServerTools queues the server-side tool calls of resp (web_search)
// for tool_calls, each with the summary of its result block.
func (r *Runner) recordServerTools(rs *run, resp *anthropic.Message) {
	results := map[string]string{}
	for _, b := range resp.Content {
		if b.Type == "web_search_tool_result" {
			results[b.ToolUseID] = webSearchSummary(b.RawJSON())
		}
	}
	for _, b := range resp.Content {
		if b.Type != "server_tool_use" {
			continue
		}
		summary, ok := results[b.ID]
		status := "ok"
		if !ok {
			summary, status = "no result in this response", "pending"
		}
		out, _ := json.Marshal(map[string]string{"status": status, "message": summary})
		rs.calls = append(rs.calls, core.ToolCall{SessionID: rs.sess.ID, ToolName: b.Name, Input: b.Input, Output: out,
			Status: status, Iteration: rs.iter, CreatedAt: r.o.Now()})
	}
}

// persist saves state, history, tokens and the queued tool calls in one
// transaction. A failure is logged and the calls stay queued: the run goes
// on and the next save catches up.
func (r *Runner) persist(rs *run) {
	ctx, cancel := context.WithTimeout(rs.wctx, writeTimeout)
	defer cancel()
	if rs.sess.State.Run == core.RunRunning {
		// The resume window counts from the last saved turn.
		rs.sess.State.RunAt = r.o.Now().UTC()
	}
	p := core.Progress{State: rs.sess.State, Messages: rs.hist.raw, From: rs.hist.saved,
		TotalTokens: rs.sess.TotalTokensUsed, Calls: rs.calls}
	if err := r.repo.SaveProgress(ctx, rs.sess.ID, p); err != nil {
		r.o.Logger.Error("ghostpath: save progress", "session_id", rs.sess.ID, "err", err)
		return
	}
	rs.hist.saved = len(rs.hist.raw)
	rs.calls = rs.calls[:0]
}
