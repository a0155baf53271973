package httpapi

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

const problem = "How might we reduce customer churn?"

func TestHealth(t *testing.T) {
	e := newEnv(t)
	want := map[string]any{"status": "healthy", "service": "ghostpath-api", "version": "4.0.0"}
	for _, path := range []string{"/api/v1/health/", "/api/v1/health"} {
		if diff := cmp.Diff(want, e.json("GET", path, nil, 200)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
	ready := e.json("GET", "/api/v1/health/ready", nil, 200)
	if diff := cmp.Diff(map[string]any{"status": "ready", "checks": map[string]any{"database": "healthy"}}, ready); diff != "" {
		t.Errorf("ready (-want +got):\n%s", diff)
	}
	e.repo.Close() // the database goes away
	notReady := e.json("GET", "/api/v1/health/ready", nil, 503)
	if diff := cmp.Diff(map[string]any{"status": "not_ready", "reason": "database_unavailable"}, notReady); diff != "" {
		t.Errorf("not ready (-want +got):\n%s", diff)
	}
	e.json("GET", "/api/v1/health/", nil, 200) // liveness does not depend on the database
}

func TestCreate(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name  string
		body  any
		field string
	}{
		{"missing", map[string]any{}, "problem"},
		{"short after trim", map[string]any{"problem": "   123456789   "}, "problem"},
		{"whitespace", map[string]any{"problem": strings.Repeat(" ", 20)}, "problem"},
		{"too long", map[string]any{"problem": strings.Repeat("x", 10_001)}, "problem"},
		{"wrong type", map[string]any{"problem": 42}, "problem"},
		{"not json", "{problem:", "body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := e.json("POST", "/api/v1/sessions", tt.body, 400)
			if errCode(got) != "VALIDATION_ERROR" || !cmp.Equal([]string{tt.field}, detailFields(got)) {
				t.Errorf("got %v", got)
			}
			if got["error"].(map[string]any)["category"] != "validation" {
				t.Errorf("category got %v", got)
			}
		})
	}
	got := e.json("POST", "/api/v1/sessions", map[string]any{"problem": "  " + problem + "\n"}, 201)
	if got["problem"] != problem || got["status"] != "created" || len(got["id"].(string)) != 36 {
		t.Errorf("got %v", got)
	}
	e.json("POST", "/api/v1/sessions", map[string]any{"problem": strings.Repeat("x", 10_000)}, 201)
	e.repo.Close()
	if got := e.json("POST", "/api/v1/sessions", map[string]any{"problem": problem}, 500); errCode(got) != "INTERNAL_ERROR" {
		t.Errorf("db down got %v", got)
	}
}

func TestList(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for i := range 3 {
		ids = append(ids, e.create(fmt.Sprintf("%s %d %s", problem, i, strings.Repeat("y", 300))))
		time.Sleep(2 * time.Millisecond)
	}
	got := e.json("GET", "/api/v1/sessions?limit=2&offset=1", nil, 200)
	sessions := got["sessions"].([]any)
	if len(sessions) != 2 || sessions[0].(map[string]any)["id"] != ids[1] {
		t.Fatalf("got %v", got)
	}
	first := sessions[0].(map[string]any)
	if p := first["problem"].(string); len([]rune(p)) != 203 || !strings.HasSuffix(p, "...") || first["status"] != "created" || first["created_at"] == "" {
		t.Errorf("item got %v", first)
	}
	if diff := cmp.Diff(map[string]any{"limit": 2.0, "offset": 1.0}, got["pagination"]); diff != "" {
		t.Errorf("pagination (-want +got):\n%s", diff)
	}
	if got := e.json("GET", "/api/v1/sessions?status=cancelled", nil, 200); len(got["sessions"].([]any)) != 0 {
		t.Errorf("filter got %v", got)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1", "status=bogus"} {
		if got := e.json("GET", "/api/v1/sessions?"+q, nil, 400); errCode(got) != "VALIDATION_ERROR" {
			t.Errorf("%s got %v", q, got)
		}
	}
}

func TestGetAndNotFound(t *testing.T) {
	e := newEnv(t)
	id := e.create(problem)
	got := e.json("GET", "/api/v1/sessions/"+id, nil, 200)
	if got["id"] != id || got["problem"] != problem || got["status"] != "created" || got["resolved_at"] != nil ||
		got["total_tokens_used"] != 0.0 || len(got["rounds"].([]any)) != 0 {
		t.Errorf("got %v", got)
	}
	missing := "0190b1a2-0000-7000-8000-000000000000"
	for _, tc := range []struct{ method, path string }{
		{"GET", "/api/v1/sessions/" + missing},
		{"GET", "/api/v1/sessions/not-a-uuid"},
		{"DELETE", "/api/v1/sessions/" + missing},
		{"POST", "/api/v1/sessions/" + missing + "/cancel"},
		{"GET", "/api/v1/sessions/" + missing + "/stream"},
		{"GET", "/api/v1/sessions/" + missing + "/spec"},
		{"GET", "/api/v1/sessions/" + id + "/spec"}, // no spec yet
		{"GET", "/api/v1/nothing-here"},
	} {
		if got := e.json(tc.method, tc.path, nil, 404); errCode(got) != "RESOURCE_NOT_FOUND" {
			t.Errorf("%s %s got %v", tc.method, tc.path, got)
		}
	}
	got = e.json("POST", "/api/v1/sessions/"+missing+"/user-input", map[string]any{"type": "ask_user_response", "response": "x"}, 404)
	if errCode(got) != "RESOURCE_NOT_FOUND" || got["error"].(map[string]any)["context"].(map[string]any)["session_id"] != missing {
		t.Errorf("user-input got %v", got)
	}
}

// TestDelete: a session can be deleted in every state (issue 16): paused at
// a round, created and idle, cancelled, resolved, and while its run is in
// progress (the run is cancelled and awaited first, so it writes nothing
// after).
func TestDelete(t *testing.T) {
	e := newEnv(t)
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	paused := e.create(problem)
	e.stream(paused)
	if resp := e.do("DELETE", "/api/v1/sessions/"+paused, nil); resp.StatusCode != 204 {
		t.Errorf("session paused at a round: got %d", resp.StatusCode)
	}
	if rounds, _ := e.repo.CountRounds(t.Context(), paused); rounds != 0 {
		t.Errorf("rounds left after delete: %d", rounds)
	}
	created := e.create(problem)
	resp := e.do("DELETE", "/api/v1/sessions/"+created, nil)
	if resp.StatusCode != 204 {
		t.Fatalf("got %d", resp.StatusCode)
	}
	e.json("GET", "/api/v1/sessions/"+created, nil, 404)

	cancelled := e.create(problem)
	e.json("POST", "/api/v1/sessions/"+cancelled+"/cancel", nil, 200)
	resolved := e.create(problem)
	now := time.Now()
	if err := e.repo.UpdateStatus(t.Context(), resolved, core.StatusResolved, &now); err != nil {
		t.Fatal(err)
	}
	for name, id := range map[string]string{"cancelled": cancelled, "resolved": resolved} {
		if resp := e.do("DELETE", "/api/v1/sessions/"+id, nil); resp.StatusCode != 204 {
			t.Errorf("%s session: got %d", name, resp.StatusCode)
		}
		e.json("GET", "/api/v1/sessions/"+id, nil, 404)
	}

	running := e.create(problem)
	e.fake.Enqueue(ideatetest.Gates(), llmtest.Text("never").WithDelay(time.Minute))
	stream := e.do("GET", "/api/v1/sessions/"+running+"/stream", nil)
	n := len(e.fake.WaitRequests(t, 6, 30*time.Second)) // the hanging call is in flight
	if resp := e.do("DELETE", "/api/v1/sessions/"+running, nil); resp.StatusCode != 204 {
		t.Fatalf("running session: got %d", resp.StatusCode)
	}
	if d := doneOf(t, readSSE(t, stream)); !d.Cancelled {
		t.Errorf("running session's stream ended with %+v", d)
	}
	e.json("GET", "/api/v1/sessions/"+running, nil, 404)
	if calls, _ := e.repo.ListToolCalls(t.Context(), running); len(calls) != 0 || len(e.fake.Requests()) != n {
		t.Errorf("the deleted session's run went on: %d tool calls, %d requests", len(calls), len(e.fake.Requests()))
	}
}

// TestCancel: created and active sessions can be cancelled whether a run is
// in progress or not (issue 16); a cancelled one cannot be cancelled again.
func TestCancel(t *testing.T) {
	e := newEnv(t)
	idle := e.create(problem)
	if got := e.json("POST", "/api/v1/sessions/"+idle+"/cancel", nil, 200); got["message"] != "Session cancelled" {
		t.Errorf("idle created got %v", got)
	}
	e.fake.Enqueue(ideatetest.FirstRound("R1")...)
	paused := e.create(problem)
	e.stream(paused)
	if got := e.json("POST", "/api/v1/sessions/"+paused+"/cancel", nil, 200); got["message"] != "Session cancelled" {
		t.Errorf("paused at a round got %v", got)
	}
	if got := e.json("GET", "/api/v1/sessions/"+paused, nil, 200); got["status"] != "cancelled" {
		t.Errorf("paused after cancel got %v", got)
	}
	// A running loop stops when cancelled.
	created := e.create(problem)
	before := len(e.fake.Requests())
	e.fake.Enqueue(ideatetest.Gates(), llmtest.Text("never").WithDelay(time.Minute))
	resp := e.do("GET", "/api/v1/sessions/"+created+"/stream", nil)
	e.fake.WaitRequests(t, before+2, 30*time.Second)
	start := time.Now()
	if got := e.json("POST", "/api/v1/sessions/"+created+"/cancel", nil, 200); got["message"] != "Session cancelled" {
		t.Errorf("got %v", got)
	}
	evs := readSSE(t, resp)
	if d := doneOf(t, evs); !d.Cancelled || time.Since(start) > 5*time.Second {
		t.Errorf("done got %+v after %v", d, time.Since(start))
	}
	if got := e.json("GET", "/api/v1/sessions/"+created, nil, 200); got["status"] != "cancelled" || got["running"] != false {
		t.Errorf("got %v", got)
	}
	if got := e.json("POST", "/api/v1/sessions/"+created+"/cancel", nil, 400); errCode(got) != "INVALID_SESSION_STATE" {
		t.Errorf("second cancel got %v", got)
	}
	// Streaming a cancelled session says so instead of running.
	evs = e.stream(created)
	if ev, ok := find(evs, core.EventError); !ok || !strings.Contains(string(ev.Data), "INVALID_SESSION_STATE") || len(e.fake.Requests()) != before+2 {
		t.Errorf("stream of cancelled got %v", evTypes(evs))
	}
}
