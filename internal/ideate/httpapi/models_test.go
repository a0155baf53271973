package httpapi

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

const secretMarker = "SECRET-MARKER-acct_8f3e"

// errorOf returns the data of the stream's error event.
func errorOf(tb testing.TB, evs []sseEvent) core.SSEError {
	tb.Helper()
	ev, ok := find(evs, core.EventError)
	if !ok {
		tb.Fatalf("no error event in %v", evTypes(evs))
	}
	var d core.SSEError
	json.Unmarshal(ev.Data, &d)
	return d
}

// A hanging model ends the run at the per-call deadline with an error event
// and done {error: true}; the fake sees the request abandoned.
func TestModelTimeoutEndsRun(t *testing.T) {
	e := newEnvWith(t, func(e *env) { e.timeout = 100 * time.Millisecond })
	id := e.create(problem)
	e.fake.Enqueue(llmtest.Hang())
	evs := e.stream(id)
	if d := doneOf(t, evs); !d.Error || d.Cancelled {
		t.Fatalf("done got %+v (%v)", d, evTypes(evs))
	}
	if got := errorOf(t, evs); got.Code != core.CodeAnthropicAPI || got.APICode != "timeout" || !strings.Contains(got.Message, "did not answer within 100ms") {
		t.Errorf("error got %+v", got)
	}
	e.fake.WaitCancelled(t, 1, 10*time.Second)
	if n := len(e.fake.Requests()); n != 1 {
		t.Errorf("requests got %d, want 1 (a timeout is not retried)", n)
	}
}

// Refusal and max_tokens end the run with an error, not done {error:
// false}; the turn is not kept, so streaming again retries it.
func TestRefusalAndMaxTokensAreErrors(t *testing.T) {
	for _, stop := range []string{"refusal", "max_tokens"} {
		t.Run(stop, func(t *testing.T) {
			e := newEnv(t)
			id := e.create(problem)
			e.fake.Enqueue(llmtest.Message(stop, llmtest.TextBlock(secretMarker)))
			evs := e.stream(id)
			if d := doneOf(t, evs); !d.Error {
				t.Fatalf("done got %+v (%v)", d, evTypes(evs))
			}
			if got := errorOf(t, evs); got.Code != core.CodeAnthropicAPI || got.APICode != stop || strings.Contains(got.Message, stop) {
				t.Errorf("error got %+v", got)
			}
			for _, ev := range evs {
				if strings.Contains(string(ev.Data), secretMarker) {
					t.Errorf("the unusable turn reached the client: %s", ev.Data)
				}
			}
			e.fake.Enqueue(ideatetest.FirstRound("R1")...)
			evs = e.stream(id)
			if d := doneOf(t, evs); d.Error || !d.AwaitingInput {
				t.Fatalf("retry got %+v (%v)", d, evTypes(evs))
			}
			if msgs := e.fake.Requests()[1].Messages; len(msgs) != 1 || msgs[0].Role != "user" {
				t.Errorf("retry sent %d messages, want only the user's problem", len(msgs))
			}
		})
	}
}

// The API's error body is logged, never streamed.
func TestUpstreamErrorBodyNotStreamed(t *testing.T) {
	for _, resp := range []llmtest.Response{
		llmtest.Error(400, "invalid_request_error", secretMarker),
		llmtest.Error(401, "authentication_error", secretMarker),
		llmtest.Error(500, "api_error", secretMarker),
	} {
		e := newEnvWith(t, func(*env) {})
		id := e.create(problem)
		e.fake.Handle(func(llmtest.Request) llmtest.Response { return resp })
		evs := e.stream(id)
		if d := doneOf(t, evs); !d.Error {
			t.Fatalf("done got %+v", d)
		}
		for _, ev := range evs {
			if strings.Contains(string(ev.Data), secretMarker) {
				t.Errorf("upstream body streamed: %s", ev.Data)
			}
		}
		if got := e.json("GET", "/api/v1/sessions/"+id, nil, 200); strings.Contains(toJSON(got), secretMarker) {
			t.Errorf("upstream body in session detail: %v", got)
		}
		if !strings.Contains(e.logs.String(), secretMarker) {
			t.Errorf("raw detail not logged:\n%s", e.logs.String())
		}
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Shutdown sends every open stream a final error and done before it
// closes, and aborts the model call in flight.
func TestShutdownSendsFinalEvent(t *testing.T) {
	e := newEnv(t)
	id := e.create(problem)
	e.fake.Enqueue(ideatetest.Gates(), llmtest.Hang())
	resp := e.do("GET", "/api/v1/sessions/"+id+"/stream", nil)
	e.fake.WaitRequests(t, 2, 10*time.Second)
	e.api.Shutdown()
	evs := readSSE(t, resp)
	if got := errorOf(t, evs); got.Code != core.CodeServerShutdown || !got.Recoverable {
		t.Errorf("error got %+v", got)
	}
	if d := doneOf(t, evs); !d.Error || d.Cancelled {
		t.Errorf("done got %+v", d)
	}
	e.fake.WaitCancelled(t, 1, 10*time.Second)
}

// The user's scores and comments are authoritative: a store_premise call
// carrying other values after the user scored changes neither the database
// nor the report.
func TestUserScoresAreAuthoritative(t *testing.T) {
	e := newEnv(t)
	id := e.create(problem)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	ps := premisesOf(t, e.stream(id))
	body := scoresBody(ps, 7.2, 4.1, 8.5)
	body["scores"].([]map[string]any)[0]["comment"] = "Like this but cheaper"
	e.fake.Enqueue(
		llmtest.ToolUse("toolu_store", "store_premise", map[string]any{"title": ps[0].Title, "premise_type": "initial",
			"round_number": 1, "score": 8.0, "user_comment": "nice"}),
		ideatetest.AskUser("Cheaper matters most?"),
	)
	evs := e.input(id, body)
	if d := doneOf(t, evs); d.Error || !d.AwaitingInput {
		t.Fatalf("scores turn got %+v (%v)", d, evTypes(evs))
	}
	stored, err := e.repo.QueryPremises(context.Background(), id, core.PremiseQuery{Filter: core.FilterByRound, RoundNumber: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p := stored[0]; p.Title != ps[0].Title || p.Score == nil || *p.Score != 7.2 || p.UserComment != "Like this but cheaper" {
		t.Errorf("database got %+v", p)
	}
	detail := e.json("GET", "/api/v1/sessions/"+id, nil, 200)
	p := detail["rounds"].([]any)[0].(map[string]any)["premises"].([]any)[0].(map[string]any)
	if p["score"] != 7.2 || p["user_comment"] != "Like this but cheaper" {
		t.Errorf("report got %v", p)
	}
}
