package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// TestPauseTurnIsSavedBeforeTheNextCall: a pause_turn reply (a paid web
// search) is persisted before the model is called again, so when that next
// call fails (a crash or an outage) the next run continues the saved turn
// instead of searching again.
func TestPauseTurnIsSavedBeforeTheNextCall(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(
		llmtest.Message("pause_turn",
			llmtest.ServerToolUseBlock("srv1", "web_search", map[string]any{"query": "churn 2026"}),
			llmtest.WebSearchResultBlock("srv1", llmtest.WebResult{URL: "https://a.example", Title: "A"})),
		llmtest.Error(400, "invalid_request_error", "the process died here"),
	)
	s := f.session(t)
	if _, out := f.run(context.Background(), s); !out.Errored {
		t.Fatalf("second call should fail, got %+v", out)
	}
	saved, err := f.repo.GetSession(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	calls, _ := f.repo.ListToolCalls(context.Background(), s.ID)
	if len(calls) != 1 || calls[0].ToolName != "web_search" || calls[0].Status != "ok" {
		t.Errorf("web search not saved: %+v", calls)
	}
	if !saved.State.TurnPaused || !Due(&saved) {
		t.Fatalf("saved session does not resume the paused turn: %+v", saved.State)
	}
	// The next run (after a restart) continues the saved turn.
	f.fake.Enqueue(llmtest.Text("Research done."))
	evs, out := f.run(context.Background(), &saved)
	if out.Errored || last(evs).AwaitingInput {
		t.Fatalf("resume got %+v", out)
	}
	reqs := f.fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests got %d, want 3", len(reqs))
	}
	msgs := reqs[2].Messages
	lastMsg := msgs[len(msgs)-1]
	if lastMsg.Role != "assistant" || len(lastMsg.Content) != 2 || lastMsg.Content[1]["type"] != "web_search_tool_result" {
		t.Errorf("resumed request does not continue the saved turn: %+v", lastMsg)
	}
	final, _ := f.repo.GetSession(context.Background(), s.ID)
	if final.State.TurnPaused || Due(&final) {
		t.Errorf("finished session still due: %+v", final.State)
	}
	if calls, _ := f.repo.ListToolCalls(context.Background(), s.ID); len(calls) != 1 {
		t.Errorf("tool calls after resume got %d, want the one web search", len(calls))
	}
}

// TestToolTurnIsSavedBeforeTheNextCall: when the model is called again
// after a turn of tool calls (here with a paid web search in the same
// turn), that turn, its results and its tool_calls rows are already in the
// database, so a crash during the call loses neither the search nor the
// tools' effects. The check runs inside the fake API, at the moment of the
// next call.
func TestToolTurnIsSavedBeforeTheNextCall(t *testing.T) {
	f := newFixture(t, nil)
	s := f.session(t)
	type seen struct {
		messages int
		calls    []string
		gates    bool
	}
	var atSecond *seen
	f.fake.Handle(func(r llmtest.Request) llmtest.Response {
		if len(r.Messages) == 1 {
			return llmtest.Message("tool_use",
				llmtest.ServerToolUseBlock("srv1", "web_search", map[string]any{"query": "churn 2026"}),
				llmtest.WebSearchResultBlock("srv1", llmtest.WebResult{URL: "https://a.example", Title: "A"}),
				llmtest.ToolUseBlock("t1", "decompose_problem", map[string]any{"problem_statement": "churn", "dimensions": []string{"price"}}))
		}
		saved, err := f.repo.GetSession(context.Background(), s.ID)
		if err != nil {
			t.Errorf("read the session during the next call: %v", err)
			return llmtest.Text("x")
		}
		calls, _ := f.repo.ListToolCalls(context.Background(), s.ID)
		atSecond = &seen{messages: strings.Count(string(saved.Messages), `"role":`), gates: saved.State.HasGate(core.GateDecompose)}
		for _, c := range calls {
			atSecond.calls = append(atSecond.calls, c.ToolName)
		}
		return llmtest.Text("Done.")
	})
	if _, out := f.run(context.Background(), s); out.Errored {
		t.Fatalf("got %+v", out)
	}
	if atSecond == nil {
		t.Fatal("the model was not called a second time")
	}
	if atSecond.messages != 3 || !atSecond.gates || strings.Join(atSecond.calls, ",") != "web_search,decompose_problem" {
		t.Errorf("at the second call the database held %+v; want 3 messages, decompose done, the web search and decompose_problem rows", *atSecond)
	}
}
