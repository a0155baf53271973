package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// paige_start_session starts the session from Claude Code alone with
// session:start's effects: the issue looked up with gh (found on PATH),
// session:started and fs:tree broadcast to the editor, the session tools
// engaged; the same issue again keeps the session, another one replaces it.
func TestServeStartSessionMCP(t *testing.T) {
	s := startServe(t, withFakeGH(t, serveEnv(t), `{"number":42,"title":"Token refresh race","body":"Two tabs refresh at once.","labels":[{"name":"bug"}],"url":"https://github.com/o/r/issues/42"}`))
	db := openDB(t, s)
	editor, cs := s.ws(t), s.mcpClient(t)
	if msg := callTool(t, cs, "paige_get_session_state", map[string]any{}, nil); msg != "No active session" {
		t.Fatalf("before start: %q", msg)
	}
	var out mcpapi.StartOut
	if msg := callTool(t, cs, "paige_start_session", map[string]any{"issueNumber": 42, "goal": "fix the race"}, &out); msg != "" {
		t.Fatalf("paige_start_session: %s", msg)
	}
	want := wsapi.IssueContext{Number: 42, Title: "Token refresh race", Summary: "Two tabs refresh at once.",
		Labels: []string{"bug"}, URL: "https://github.com/o/r/issues/42"}
	if out.SessionID == "" || out.Resumed || out.Warning != "" || out.IssueContext == nil || out.IssueContext.Title != want.Title ||
		out.IssueContext.Summary != want.Summary || out.IssueContext.URL != want.URL {
		t.Fatalf("result = %+v", out)
	}
	var started wsapi.SessionStarted
	editor.expect(wsapi.TypeSessionStarted, &started)
	if started.SessionID != out.SessionID || started.IssueContext == nil || started.IssueContext.Summary != want.Summary {
		t.Errorf("session:started = %+v", started)
	}
	editor.expect(wsapi.TypeFSTree, nil)
	row, err := db.Session(t.Context(), out.SessionID)
	if err != nil || row.Status != coach.SessionActive || row.IssueTitle != want.Title || row.IssueNumber == nil || *row.IssueNumber != 42 {
		t.Fatalf("sessions row = %+v, %v", row, err)
	}
	if msg := callTool(t, cs, "paige_get_session_state", map[string]any{"include": []string{"session"}}, nil); msg != "" {
		t.Errorf("session state after start: %s", msg)
	}
	if d := dataOf(t, actionsOf(t, db, out.SessionID, coach.ActionSessionStarted, 1)[0]); d["goal"] != "fix the race" {
		t.Errorf("session_started data = %v", d)
	}

	var again mcpapi.StartOut
	callTool(t, cs, "paige_start_session", map[string]any{"issueNumber": 42}, &again)
	if !again.Resumed || again.SessionID != out.SessionID {
		t.Errorf("same issue again = %+v, want the session kept", again)
	}
	var other mcpapi.StartOut
	callTool(t, cs, "paige_start_session", map[string]any{"issueNumber": 43, "issueTitle": "Other"}, &other)
	if other.Resumed || other.SessionID == out.SessionID || other.IssueContext.Title != "Other" {
		t.Errorf("other issue = %+v", other)
	}
	if row, _ := db.Session(t.Context(), out.SessionID); row.Status != coach.SessionAbandoned {
		t.Errorf("first session status = %s, want abandoned", row.Status)
	}
	if msg := callTool(t, cs, "paige_start_session", map[string]any{"issueNumber": -1}, nil); msg == "" {
		t.Error("negative issue number accepted")
	}
}

// Without gh the session still starts, untitled, and the result says why.
func TestServeStartSessionNoGH(t *testing.T) {
	env := serveEnv(t)
	env["PATH"] = t.TempDir() // whatever gh the machine has is not on it
	s := startServe(t, env)
	editor, cs := s.ws(t), s.mcpClient(t)
	var out mcpapi.StartOut
	if msg := callTool(t, cs, "paige_start_session", map[string]any{"issueNumber": 5}, &out); msg != "" {
		t.Fatal(msg)
	}
	if out.SessionID == "" || out.Warning == "" || out.IssueContext == nil || out.IssueContext.Number != 5 || out.IssueContext.Title != "" {
		t.Errorf("result = %+v", out)
	}
	editor.expect(wsapi.TypeSessionStarted, nil)
}

// until reads messages up to and including the first of type typ and
// returns their types, sorted (the order of independent broadcasts, such as
// the Observer's status, is not part of the contract), and the first
// message of each type.
func (w *wsClient) until(typ string) ([]string, map[string]wsapi.Envelope) {
	w.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	var types []string
	first := map[string]wsapi.Envelope{}
	for {
		env := w.read(ctx, fmt.Sprintf("%s after %v", typ, types))
		types = append(types, env.Type)
		if _, ok := first[env.Type]; !ok {
			first[env.Type] = env
		}
		if env.Type == typ {
			sort.Strings(types)
			return types, first
		}
	}
}

// paige_start_session broadcasts what session:start broadcasts: the same
// messages reach a watching editor, and the same session:started payload
// (the issue looked up with gh in both cases) but for the session id.
func TestServeStartSessionBroadcastsLikeSessionStart(t *testing.T) {
	s := startServe(t, withFakeGH(t, serveEnv(t), `{"number":42,"title":"Token refresh race","body":"Two tabs refresh at once.","labels":[{"name":"bug"}],"url":"https://github.com/o/r/issues/42"}`))
	starter, watcher, cs := s.ws(t), s.ws(t), s.mcpClient(t)
	for _, c := range []*wsClient{starter, watcher} { // both registered before the start
		c.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{})
		c.expect(wsapi.TypeConnectionInit, nil)
	}

	starter.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 42})
	wsTypes, wsGot := watcher.until(wsapi.TypeFSTree)
	starter.send(wsapi.TypeSessionEnd, map[string]any{})
	watcher.expect(wsapi.TypeSessionEnded, nil)

	var out mcpapi.StartOut
	if msg := callTool(t, cs, "paige_start_session", map[string]any{"issueNumber": 42}, &out); msg != "" {
		t.Fatal(msg)
	}
	mcpTypes, mcpGot := watcher.until(wsapi.TypeFSTree)
	if diff := cmp.Diff(wsTypes, mcpTypes); diff != "" {
		t.Errorf("messages up to fs:tree (-session:start +paige_start_session):\n%s", diff)
	}
	t.Logf("both broadcast %v", wsTypes)
	wsStarted, mcpStarted := wsGot[wsapi.TypeSessionStarted], mcpGot[wsapi.TypeSessionStarted]
	var a, b map[string]any
	if err := json.Unmarshal(wsStarted.Payload, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(mcpStarted.Payload, &b); err != nil {
		t.Fatal(err)
	}
	if b["sessionId"] != out.SessionID || a["sessionId"] == b["sessionId"] {
		t.Errorf("session ids: session:start %v, paige_start_session %v (result %s)", a["sessionId"], b["sessionId"], out.SessionID)
	}
	delete(a, "sessionId")
	delete(b, "sessionId")
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("session:started payload (-session:start +paige_start_session):\n%s", diff)
	}
	if ic, _ := a["issueContext"].(map[string]any); ic["title"] != "Token refresh race" {
		t.Errorf("session:start's issue context = %v, want gh's title", a["issueContext"])
	}
}
