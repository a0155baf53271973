package httpapi

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func scoresBody(ps []core.PremiseView, scores ...float64) map[string]any {
	var out []map[string]any
	for i, p := range ps {
		out = append(out, map[string]any{"premise_id": p.ID, "premise_title": p.Title, "score": scores[i], "comment": "c" + p.Title})
	}
	return map[string]any{"type": "scores", "scores": out}
}

// TestFullSession walks create → round 1 → scores → ask_user → answer →
// round 2 → resolved → final spec → download, over HTTP and SSE, on SQLite
// and on PostgreSQL.
func TestFullSession(t *testing.T) {
	both(t, testFullSession)
}

func testFullSession(t *testing.T, e *env) {
	id := e.create(problem)

	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	evs := e.stream(id)
	if d := doneOf(t, evs); d.Error || !d.AwaitingInput {
		t.Fatalf("round 1 done got %+v (%v)", d, evTypes(evs))
	}
	for _, want := range []core.EventType{core.EventContextUsage, core.EventAgentText, core.EventToolCall, core.EventToolResult} {
		if _, ok := find(evs, want); !ok {
			t.Errorf("round 1 lacks %s", want)
		}
	}
	r1 := premisesOf(t, evs)
	if len(r1) != 3 || r1[0].ID == "" || r1[0].Title != "R1 premise A" || r1[0].RoundNumber != 1 {
		t.Fatalf("premises got %+v", r1)
	}
	if got := e.json("GET", "/api/v1/sessions/"+id, nil, 200); got["status"] != "active" || got["awaiting_input"] != "scores" {
		t.Errorf("after round 1 got %v", got)
	}

	// Scores: two by id, one by title only (NOTES.md), rounded to 0.1.
	body := scoresBody(r1, 7.24, 4.1, 8.55)
	body["scores"].([]map[string]any)[2]["premise_id"] = ""
	e.fake.Enqueue(ideatetest.AskUser("Do you value speed over cost?"))
	evs = e.input(id, body)
	ask, ok := find(evs, core.EventAskUser)
	if !ok || !doneOf(t, evs).AwaitingInput {
		t.Fatalf("scores turn got %v", evTypes(evs))
	}
	var askData map[string]any
	json.Unmarshal(ask.Data, &askData)
	if askData["question"] != "Do you value speed over cost?" || len(askData["options"].([]any)) != 2 || askData["allow_free_text"] != true {
		t.Errorf("ask_user got %v", askData)
	}
	if last := e.fake.Requests()[4].LastUserText(); !strings.Contains(last, `"R1 premise A": 7.2/10`) || !strings.Contains(last, `Highest scored: "R1 premise C" (8.6/10)`) {
		t.Errorf("agent was told %q", last)
	}

	r2 := answerAndSecondRound(t, e, id)
	url := resolveAndDownload(t, e, id, r2)
	checkFinalSession(t, e, id, url)
}

func answerAndSecondRound(t *testing.T, e *env, id string) []core.PremiseView {
	e.fake.Enqueue(ideatetest.Round("R2", true)...)
	evs := e.input(id, map[string]any{"type": "ask_user_response", "response": "Yes, speed"})
	r2 := premisesOf(t, evs)
	if r2[0].Title != "R2 premise A" || r2[0].RoundNumber != 2 {
		t.Fatalf("round 2 got %+v", r2)
	}
	if _, bad := find(evs, core.EventToolError); bad {
		t.Errorf("round 2 had tool errors: %v", evs)
	}

	return r2
}

func resolveAndDownload(t *testing.T, e *env, id string, r2 []core.PremiseView) string {
	spec := "# Spec\n\nThe winning idea, in depth.\n"
	e.fake.Enqueue(ideatetest.FinalSpec(r2[1].Title, spec))
	evs := e.input(id, map[string]any{"type": "resolved", "winner": map[string]any{"title": r2[1].Title, "index": 1, "score": 9.04}})
	n := len(evs)
	want := []core.EventType{core.EventFinalSpec, core.EventSpecFileReady, core.EventDone}
	if n < 3 || !cmp.Equal(want, evTypes(evs[n-3:])) {
		t.Fatalf("resolved turn got %v", evTypes(evs))
	}
	var specText string
	json.Unmarshal(evs[n-3].Data, &specText)
	var ready core.SpecFileData
	json.Unmarshal(evs[n-2].Data, &ready)
	if specText != spec || ready.DownloadURL != "/api/v1/sessions/"+id+"/spec" {
		t.Errorf("got %q %+v", specText, ready)
	}

	resp := e.do("GET", ready.DownloadURL, nil)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != spec || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "ghostpath-spec-"+id+".md") {
		t.Errorf("download got %d %q %v", resp.StatusCode, b, resp.Header)
	}
	if onDisk, err := os.ReadFile(filepath.Join(e.specDir, id+".md")); err != nil || string(onDisk) != spec {
		t.Errorf("spec file got %q %v", onDisk, err)
	}

	return ready.DownloadURL
}

func checkFinalSession(t *testing.T, e *env, id, url string) {
	got := e.json("GET", "/api/v1/sessions/"+id, nil, 200)
	rounds := got["rounds"].([]any)
	if got["status"] != "resolved" || got["resolved_at"] == nil || got["spec_url"] != url || len(rounds) != 2 {
		t.Fatalf("final session got %v", got)
	}
	p1 := rounds[0].(map[string]any)["premises"].([]any)
	p2 := rounds[1].(map[string]any)["premises"].([]any)
	if p1[0].(map[string]any)["score"] != 7.2 || p1[2].(map[string]any)["score"] != 8.6 || p1[0].(map[string]any)["user_comment"] != "cR1 premise A" {
		t.Errorf("round 1 scores got %v", p1)
	}
	if w := p2[1].(map[string]any); w["is_winner"] != true || w["score"] != 9.0 {
		t.Errorf("winner got %v", w)
	}
	// Streaming the finished session re-sends the spec without calling the model.
	before := len(e.fake.Requests())
	evs := e.stream(id)
	if _, ok := find(evs, core.EventFinalSpec); !ok || len(e.fake.Requests()) != before {
		t.Errorf("re-stream got %v", evTypes(evs))
	}
	if got := e.json("POST", "/api/v1/sessions/"+id+"/user-input", map[string]any{"type": "ask_user_response", "response": "more"}, 400); errCode(got) != "INVALID_SESSION_STATE" {
		t.Errorf("input after spec got %v", got)
	}
}

func TestUserInputValidation(t *testing.T) {
	e := newEnv(t)
	id := e.create(problem)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	ps := premisesOf(t, e.stream(id))
	tests := []struct {
		name   string
		body   any
		code   string
		fields []string
	}{
		{"two scores", map[string]any{"type": "scores", "scores": scoresBody(ps, 1, 2, 3)["scores"].([]map[string]any)[:2]}, "VALIDATION_ERROR", []string{"scores"}},
		{"score above 10", scoresBody(ps, 1, 10.5, 3), "VALIDATION_ERROR", []string{"scores.1.score"}},
		{"unknown premise", func() map[string]any {
			b := scoresBody(ps, 1, 2, 3)
			b["scores"].([]map[string]any)[0]["premise_id"], b["scores"].([]map[string]any)[0]["premise_title"] = "x", "nope"
			return b
		}(), "VALIDATION_ERROR", []string{"scores.0.premise_id"}},
		{"duplicate premise", func() map[string]any {
			b := scoresBody(ps, 1, 2, 3)
			b["scores"].([]map[string]any)[1]["premise_id"] = ps[0].ID
			return b
		}(), "VALIDATION_ERROR", []string{"scores.1.premise_id"}},
		{"winner index 3", map[string]any{"type": "resolved", "winner": map[string]any{"title": "t", "index": 3}}, "VALIDATION_ERROR", []string{"winner.index"}},
		{"unknown type", map[string]any{"type": "vote"}, "VALIDATION_ERROR", []string{"type"}},
		{"bad json", "[", "VALIDATION_ERROR", []string{"body"}},
		{"answer while scores are awaited", map[string]any{"type": "ask_user_response", "response": "hi"}, "INVALID_SESSION_STATE", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := e.json("POST", "/api/v1/sessions/"+id+"/user-input", tt.body, 400)
			if errCode(got) != tt.code || !cmp.Equal(tt.fields, detailFields(got)) {
				t.Errorf("got %v", got)
			}
		})
	}
	// Nothing above reached the model or changed the session.
	if n := len(e.fake.Requests()); n != 4 {
		t.Errorf("model called %d times, want 4", n)
	}
	// The flat winner form of the spec's message flow is accepted too.
	e.fake.Enqueue(ideatetest.FinalSpec(ps[0].Title, "# S"))
	evs := e.input(id, map[string]any{"type": "resolved", "winner_title": ps[0].Title, "winner_index": 0})
	if _, ok := find(evs, core.EventSpecFileReady); !ok {
		t.Errorf("flat resolved got %v", evTypes(evs))
	}
}

func TestConflictWhileRunning(t *testing.T) {
	e := newEnv(t)
	id := e.create(problem)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	ps := premisesOf(t, e.stream(id))
	e.fake.Enqueue(llmtest.Text("thinking...").WithDelay(2 * time.Second)) // margin for a loaded machine
	resp := e.do("POST", "/api/v1/sessions/"+id+"/user-input", scoresBody(ps, 1, 2, 3))
	e.fake.WaitRequests(t, 5, 5*time.Second)
	if got := e.json("POST", "/api/v1/sessions/"+id+"/user-input", scoresBody(ps, 1, 2, 3), 409); errCode(got) != "CONCURRENCY_CONFLICT" {
		t.Errorf("got %v", got)
	}
	// A second stream attaches to the running turn and sees the same events.
	second := e.stream(id)
	first := readSSE(t, resp)
	if !cmp.Equal(evTypes(first), evTypes(second)) || doneOf(t, first).Error {
		t.Errorf("first %v, second %v", evTypes(first), evTypes(second))
	}
}

// TestResumeAfterRestart closes the server and the store and starts them
// again on the same database: a paused session re-sends its prompt, and a
// run interrupted mid-way continues from its last persisted turn.
func TestResumeAfterRestart(t *testing.T) {
	both(t, testResumeAfterRestart)
}

func testResumeAfterRestart(t *testing.T, e *env) {
	paused := e.create(problem)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	before := premisesOf(t, e.stream(paused))

	interrupted := e.create(problem + " (interrupted)")
	e.fake.Enqueue(ideatetest.Gates(), llmtest.Text("never").WithDelay(time.Minute))
	resp := e.do("GET", "/api/v1/sessions/"+interrupted+"/stream", nil)
	e.fake.WaitRequests(t, 6, 5*time.Second)

	e.stop() // shutdown cancels the interrupted run; its stream ends with the shutdown error
	evs := readSSE(t, resp)
	if ev, ok := find(evs, core.EventError); !ok || !strings.Contains(string(ev.Data), "SERVER_SHUTTING_DOWN") || !doneOf(t, evs).Error {
		t.Errorf("interrupted stream got %v", evTypes(evs))
	}
	e.start()

	n := len(e.fake.Requests())
	evs = e.stream(paused)
	if diff := cmp.Diff(before, premisesOf(t, evs)); diff != "" || !doneOf(t, evs).AwaitingInput || len(e.fake.Requests()) != n {
		t.Fatalf("re-sent premises (-want +got):\n%s\nrequests %d→%d", diff, n, len(e.fake.Requests()))
	}
	e.fake.Enqueue(ideatetest.Round("R2", true)...)
	if r2 := premisesOf(t, e.input(paused, scoresBody(before, 5, 6, 7))); r2[0].RoundNumber != 2 {
		t.Errorf("round after restart got %+v", r2)
	}

	e.fake.Enqueue(ideatetest.Round("I1", false)...)
	evs = e.stream(interrupted)
	if ps := premisesOf(t, evs); ps[0].Title != "I1 premise A" {
		t.Fatalf("resumed run got %+v", ps)
	}
	reqs := e.fake.Requests()
	resumed := reqs[len(reqs)-3]
	if len(resumed.Messages) != 3 || resumed.Messages[2].Content[0]["type"] != "tool_result" {
		t.Errorf("resumed request has %d messages, want the persisted 3", len(resumed.Messages))
	}
}

func TestConcurrentSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("100 concurrent sessions: skipped in -short")
	}
	both(t, func(t *testing.T, e *env) {
		scriptByTurn(e.fake)
		if errs := runSessions(t, e, 100); len(errs) > 0 {
			t.Fatalf("%d of 100 sessions failed, first: %v\nlogs:\n%s", len(errs), errs[0], e.logs)
		}
	})
}

// scriptByTurn answers every session's round 1 by how far its history is.
func scriptByTurn(fake *llmtest.Server) {
	script := ideatetest.FirstRound("L")
	fake.Handle(func(r llmtest.Request) llmtest.Response {
		turn := (len(r.Messages) - 1) / 2
		if turn >= len(script) {
			return llmtest.Text("done")
		}
		return script[turn]
	})
}

// runSessions creates n sessions and streams their first round at once.
func runSessions(tb testing.TB, e *env, n int) []string {
	tb.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = e.create(problem)
	}
	var mu sync.Mutex
	var errs []string
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := e.srv.Client().Get(e.srv.URL + "/api/v1/sessions/" + id + "/stream")
			if err != nil {
				mu.Lock()
				errs = append(errs, err.Error())
				mu.Unlock()
				return
			}
			evs := readSSE(tb, resp)
			ev, ok := find(evs, core.EventPremises)
			var ps []core.PremiseView
			json.Unmarshal(ev.Data, &ps)
			if _, bad := find(evs, core.EventToolError); !ok || bad || len(ps) != 3 {
				mu.Lock()
				var detail []string
				for _, ev := range evs {
					if ev.Type == core.EventToolError || ev.Type == core.EventError {
						detail = append(detail, string(ev.Data))
					}
				}
				errs = append(errs, id+": "+strings.Join(detail, "; ")+" "+string(evs[len(evs)-1].Data))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errs
}

// BenchmarkConcurrentSessions streams 100 sessions' first rounds (4 model
// turns, 10 tool calls each) at once per op, against llmtest.
func BenchmarkConcurrentSessions(b *testing.B) {
	e := newEnv(b)
	scriptByTurn(e.fake)
	for b.Loop() {
		if errs := runSessions(b, e, 100); len(errs) > 0 {
			b.Fatalf("%d sessions failed: %v", len(errs), errs[0])
		}
	}
	b.ReportMetric(100, "sessions/op")
}
