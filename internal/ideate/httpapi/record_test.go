package httpapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// detail is GET /sessions/{id} decoded into the fields these tests read.
type detail struct {
	Title      string         `json:"title"`
	Status     string         `json:"status"`
	Awaiting   string         `json:"awaiting_input"`
	WaitingFor string         `json:"waiting_for"`
	RunError   *core.RunError `json:"run_error"`
	SpecURL    *string        `json:"spec_url"`
	Answers    []core.Answer  `json:"answers"`
	Rounds     []struct {
		RoundNumber int `json:"round_number"`
		Premises    []struct {
			ID              string        `json:"id"`
			Title           string        `json:"title"`
			Body            string        `json:"body"`
			Score           *float64      `json:"score"`
			UserComment     *string       `json:"user_comment"`
			IsWinner        bool          `json:"is_winner"`
			SecondaryTitles []string      `json:"secondary_titles"`
			Parents         []core.Parent `json:"parents"`
		} `json:"premises"`
	} `json:"rounds"`
}

func (e *env) detail(id string) detail {
	e.t.Helper()
	raw, _ := json.Marshal(e.json("GET", "/api/v1/sessions/"+id, nil, 200))
	var d detail
	if err := json.Unmarshal(raw, &d); err != nil {
		e.t.Fatal(err)
	}
	return d
}

// scoresFor scores ps 7.0, 8.0, 9.0 with a comment each.
func scoresFor(ps []core.PremiseView) map[string]any {
	var scores []map[string]any
	for i, p := range ps {
		scores = append(scores, map[string]any{"premise_id": p.ID, "score": 7.0 + float64(i), "comment": "comment " + p.Title})
	}
	return map[string]any{"type": "scores", "scores": scores}
}

// TestModelErrorAfterScores (issue 28.1): the model fails right after the
// user scored a round. The scores are saved, the round is not offered for
// scoring again (the detail says the session waits for a resume, scoring
// again says so), and Resume continues from the saved state with the next
// round, never re-sending the scored one.
func TestModelErrorAfterScores(t *testing.T) {
	both(t, func(t *testing.T, e *env) {
		id := e.create(problem)
		e.fake.Enqueue(ideatetest.FirstRound("R1")...)
		ps := premisesOf(t, e.stream(id))
		e.fake.Enqueue(llmtest.Error(400, "invalid_request_error", "bad request"))
		evs := e.input(id, scoresFor(ps))
		if d := doneOf(t, evs); !d.Error {
			t.Fatalf("scores turn got done %+v, want an error (%v)", d, evTypes(evs))
		}
		d := e.detail(id)
		if d.Awaiting != "" || d.WaitingFor != "resume" || d.RunError == nil || d.RunError.Code != core.CodeAnthropicAPI {
			t.Fatalf("after the error got awaiting %q, waiting_for %q, run_error %+v; want \"\", resume, ANTHROPIC_API_ERROR",
				d.Awaiting, d.WaitingFor, d.RunError)
		}
		for i, p := range d.Rounds[0].Premises {
			if p.Score == nil || *p.Score != 7.0+float64(i) || p.UserComment == nil || *p.UserComment != "comment "+p.Title {
				t.Errorf("premise %q: score %v comment %v, want the saved score and comment", p.Title, p.Score, p.UserComment)
			}
		}
		resp := e.json("POST", "/api/v1/sessions/"+id+"/user-input", scoresFor(ps), 400)
		if msg := resp["error"].(map[string]any)["message"].(string); errCode(resp) != string(core.CodeInvalidSessionState) ||
			!strings.Contains(msg, "resume it") {
			t.Errorf("scoring again got %v, want INVALID_SESSION_STATE saying to resume", resp)
		}
		e.fake.Enqueue(ideatetest.Round("R2", true)...)
		evs = e.stream(id)
		var rounds []string
		for _, ev := range evs {
			if ev.Type == core.EventPremises {
				var vs []core.PremiseView
				json.Unmarshal(ev.Data, &vs)
				rounds = append(rounds, vs[0].Title)
			}
		}
		if !slices.Equal(rounds, []string{"R2 premise A"}) {
			t.Fatalf("resume sent premises %v, want only round 2", rounds)
		}
		if d := e.detail(id); d.WaitingFor != "scores" || len(d.Rounds) != 2 || d.Rounds[0].Premises[0].Score == nil || d.RunError != nil {
			t.Errorf("after resume got waiting_for %q, %d rounds, run_error %+v", d.WaitingFor, len(d.Rounds), d.RunError)
		}
	})
}

// storePremise is a store_premise call.
func storePremise(title, body string, round int, winner bool) llmtest.Block {
	return llmtest.ToolUseBlock(fmt.Sprintf("toolu_store_%s_%v", strings.ReplaceAll(title, " ", "_"), winner), "store_premise",
		map[string]any{"title": title, "body": body, "premise_type": "initial", "round_number": round, "is_winner": winner})
}

// toolErrors returns the error codes of the stream's tool_error events.
func toolErrors(t *testing.T, evs []sseEvent) []core.Code {
	t.Helper()
	var out []core.Code
	for _, ev := range evs {
		if ev.Type == core.EventToolError {
			var d core.ToolErrorData
			json.Unmarshal(ev.Data, &d)
			out = append(out, d.ErrorCode)
		}
	}
	return out
}

// TestAgentCannotOverrideUser (issue 28.2): store_premise cannot mark a
// winner nor change the text of a premise the user scored; the agent gets a
// tool error it can act on, and the user's winner stays the only one.
func TestAgentCannotOverrideUser(t *testing.T) {
	both(t, func(t *testing.T, e *env) {
		id := e.create(problem)
		e.fake.Enqueue(ideatetest.FirstRound("R1")...)
		ps := premisesOf(t, e.stream(id))
		e.fake.Enqueue(append([]llmtest.Response{llmtest.Message("tool_use",
			storePremise("R1 premise B", "", 1, true),
			storePremise("R1 premise A", "A rewritten body", 1, false))}, ideatetest.Round("R2", true)...)...)
		evs := e.input(id, scoresFor(ps))
		if got := toolErrors(t, evs); !slices.Equal(got, []core.Code{core.CodeUserRecordProtected, core.CodeUserRecordProtected}) {
			t.Fatalf("tool errors got %v, want two USER_RECORD_PROTECTED", got)
		}
		// The model sees why, in its tool results.
		reqs := e.fake.Requests()
		var results string
		for _, req := range reqs {
			if raw, _ := json.Marshal(req.Messages); strings.Contains(string(raw), "only the user picks the winner") &&
				strings.Contains(string(raw), "mutate_premise") {
				results = string(raw)
			}
		}
		if results == "" {
			t.Errorf("no request carried both tool errors to the model")
		}
		r2 := premisesOf(t, evs)
		e.fake.Enqueue(llmtest.Message("tool_use", storePremise("R2 premise C", "", 2, true)),
			ideatetest.FinalSpec("R2 premise A", "# Spec"))
		evs = e.input(id, map[string]any{"type": "resolved", "winner": map[string]any{"index": 0, "premise_id": r2[0].ID}})
		if got := toolErrors(t, evs); !slices.Equal(got, []core.Code{core.CodeUserRecordProtected}) {
			t.Errorf("after resolving, tool errors got %v, want one USER_RECORD_PROTECTED", got)
		}
		d := e.detail(id)
		var winners []string
		for _, r := range d.Rounds {
			for _, p := range r.Premises {
				if p.IsWinner {
					winners = append(winners, p.Title)
				}
			}
		}
		if !slices.Equal(winners, []string{"R2 premise A"}) {
			t.Errorf("winners got %v, want only the user's R2 premise A", winners)
		}
		if body := d.Rounds[0].Premises[0].Body; body != "Body of R1 premise A" {
			t.Errorf("scored premise body got %q, want it unchanged", body)
		}
	})
}

// TestResolvedWithoutSpec (issue 28.3): the model answers the user's
// resolution with text only. The session says it waits for its spec, and
// streaming it (Continue) asks the model for the spec.
func TestResolvedWithoutSpec(t *testing.T) {
	e := newEnv(t)
	id := e.create(problem)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	premisesOf(t, e.stream(id))
	e.fake.Enqueue(llmtest.Text("What a great choice!"))
	if d := doneOf(t, e.input(id, map[string]any{"type": "resolved", "winner": map[string]any{"index": 1}})); d.Error || d.AwaitingInput {
		t.Fatalf("resolve got done %+v", d)
	}
	if d := e.detail(id); d.Status != "resolved" || d.WaitingFor != "spec" || d.SpecURL != nil {
		t.Fatalf("after a text-only answer got status %q waiting_for %q spec_url %v; want resolved, spec, none", d.Status, d.WaitingFor, d.SpecURL)
	}
	e.fake.Enqueue(ideatetest.FinalSpec("R1 premise B", "# The spec"))
	evs := e.stream(id)
	if _, ok := find(evs, core.EventFinalSpec); !ok {
		t.Fatalf("Continue got %v, want final_spec", evTypes(evs))
	}
	reqs := e.fake.Requests()
	if last := reqs[len(reqs)-1].LastUserText(); !strings.Contains(last, "Call generate_final_spec now") || !strings.Contains(last, "R1 premise B") {
		t.Errorf("the model was asked %q, want the spec request naming the winner", last)
	}
	if d := e.detail(id); d.WaitingFor != "final_spec" || d.SpecURL == nil {
		t.Errorf("after Continue got waiting_for %q spec_url %v", d.WaitingFor, d.SpecURL)
	}
}

// failTimes returns n copies of an API error answer: every attempt of one
// call (the client retries 429 and 529).
func failTimes(r llmtest.Response) []llmtest.Response {
	out := make([]llmtest.Response, agent.DefaultMaxRetries+1)
	for i := range out {
		out[i] = r
	}
	return out
}

// TestNothingSpentAtStart (issue 28.4): across a restart, only the session
// whose run the process stopping interrupted calls the model again (and
// only within the resume window); failed (refusal, 429, 529) and cancelled
// runs cost nothing and wait for the user; the list says so.
func TestNothingSpentAtStart(t *testing.T) {
	both(t, func(t *testing.T, e *env) {
		e.grace = 20 * time.Millisecond
		e.stop()
		e.start()
		fails := map[string][]llmtest.Response{
			"refusal": {llmtest.Message("refusal")},
			"429":     failTimes(llmtest.Error(429, "rate_limit_error", "slow down").WithRetryAfter(0)),
			"529":     failTimes(llmtest.Error(529, "overloaded_error", "overloaded")),
		}
		failed := map[string]string{}
		for _, name := range []string{"refusal", "429", "529"} {
			id := e.create(problem + " " + name)
			e.fake.Enqueue(fails[name]...)
			if d := doneOf(t, e.stream(id)); !d.Error {
				t.Fatalf("%s: got done %+v, want an error", name, d)
			}
			failed[name] = id
		}
		// A run whose page was closed is cancelled after the grace.
		closed := e.create(problem + " closed")
		e.fake.Enqueue(ideatetest.Gates(), llmtest.Text("never").WithDelay(time.Minute))
		n := len(e.fake.Requests())
		resp := e.do("GET", "/api/v1/sessions/"+closed+"/stream", nil)
		n = len(e.fake.WaitRequests(t, n+2, 30*time.Second))
		resp.Body.Close()
		e.fake.WaitCancelled(t, 1, 30*time.Second)
		waitIdle(t, e, closed)
		// A run the restart interrupts.
		interrupted := e.create(problem + " interrupted")
		e.fake.Enqueue(ideatetest.Gates(), llmtest.Text("never").WithDelay(time.Minute))
		resp = e.do("GET", "/api/v1/sessions/"+interrupted+"/stream", nil)
		n = len(e.fake.WaitRequests(t, n+2, 30*time.Second))
		e.stop()
		readSSE(t, resp)

		// Two hours later, nothing resumes: the window has passed.
		e.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
		e.start()
		if got, err := e.api.ResumeInterrupted(t.Context()); err != nil || got != 0 {
			t.Fatalf("outside the window resumed %d runs, err %v; want 0", got, err)
		}
		e.stop()
		e.now = nil
		e.start()
		round := ideatetest.Round("I1", false)
		e.fake.Enqueue(round...)
		if got, err := e.api.ResumeInterrupted(t.Context()); err != nil || got != 1 {
			t.Fatalf("resumed %d runs, err %v; want 1", got, err)
		}
		e.fake.WaitRequests(t, n+len(round), 30*time.Second)
		waitIdle(t, e, interrupted)
		if got := len(e.fake.Requests()); got != n+len(round) {
			t.Errorf("model calls across the restart got %d, want %d: failed and cancelled sessions must cost nothing", got-n, len(round))
		}
		list := e.json("GET", "/api/v1/sessions?limit=100", nil, 200)["sessions"].([]any)
		got := map[string]string{}
		for _, it := range list {
			m := it.(map[string]any)
			got[m["id"].(string)] = m["waiting_for"].(string)
			if m["id"] == failed["429"] {
				if re, _ := m["run_error"].(map[string]any); re == nil || re["api_code"] != "rate_limit" {
					t.Errorf("the 429 session's list row has run_error %v, want api_code rate_limit", m["run_error"])
				}
			}
		}
		want := map[string]string{failed["refusal"]: "resume", failed["429"]: "resume", failed["529"]: "resume",
			closed: "resume", interrupted: "scores"}
		for id, w := range want {
			if got[id] != w {
				t.Errorf("list waiting_for of %s got %q, want %q", id, got[id], w)
			}
		}
	})
}

// waitIdle waits until the session has no run in progress.
func waitIdle(t *testing.T, e *env, id string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for e.api.runs.get(id) != nil {
		if time.Now().After(deadline) {
			t.Fatalf("session %s still running", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
