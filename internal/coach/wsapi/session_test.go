package wsapi

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/workspace"
)

// session:start and session:end over the wire: rows, broadcasts to every
// editor, fs:tree on start, NO_ACTIVE_SESSION for a second end.
func TestSessionStartEnd(t *testing.T) {
	h := newHarness(t, Options{})
	ctx := context.Background()
	c, other := h.dial(t), h.dial(t)
	c.sendRaw(`{"type":"session:start","payload":{"issueNumber":42,"issueTitle":"Fix OAuth race"},"id":"s1"}`)
	var started SessionStarted
	env := c.expect(TypeSessionStarted, &started)
	if env.ID != "s1" || started.SessionID == "" || started.IssueContext == nil || started.IssueContext.Number != 42 {
		t.Fatalf("session:started = %+v (id %q)", started, env.ID)
	}
	var tree FSTree
	c.expect(TypeFSTree, &tree)
	if len(tree.Root.Children) == 0 {
		t.Errorf("fs:tree has no children: %+v", tree)
	}
	other.expect(TypeSessionStarted, nil)
	other.expect(TypeFSTree, nil)
	row, err := h.st.Session(ctx, started.SessionID)
	if err != nil || row.Status != coach.SessionActive || row.IssueTitle != "Fix OAuth race" {
		t.Fatalf("row = %+v, %v", row, err)
	}

	c.send(TypeSessionEnd, Empty{})
	var ended SessionEnded
	c.expect(TypeSessionEnded, &ended)
	if ended.Summary.SessionID != row.ID || ended.Summary.Status != "completed" || ended.Summary.EndedAt == "" {
		t.Errorf("session:ended = %+v", ended)
	}
	other.expect(TypeSessionEnded, nil)
	if row, _ = h.st.Session(ctx, row.ID); row.Status != coach.SessionCompleted || row.EndedAt == nil {
		t.Errorf("row after end = %+v", row)
	}
	c.send(TypeSessionEnd, Empty{}) // no session
	var e ConnectionError
	c.expect(TypeConnectionError, &e)
	if e.Code != CodeNoActiveSession {
		t.Errorf("code = %s", e.Code)
	}
}

// session:resume reactivates a row (SESSION_NOT_FOUND for unknown ids); a
// new session:start abandons the resumed one.
func TestSessionResumeAndAbandon(t *testing.T) {
	h := newHarness(t, Options{})
	ctx := context.Background()
	c := h.dial(t)
	first, _ := h.sess.Start(ctx, session.StartInput{})
	h.sess.End(ctx)

	c.send(TypeSessionResume, SessionResume{SessionID: first.ID})
	var resumed SessionResumed
	c.expect(TypeSessionResumed, &resumed)
	if resumed.RestoredState.SessionID != first.ID || resumed.RestoredState.Phases == nil {
		t.Errorf("session:resumed = %+v", resumed)
	}
	c.expect(TypeFSTree, nil)
	if row, _ := h.st.Session(ctx, first.ID); row.Status != coach.SessionActive || row.EndedAt != nil {
		t.Errorf("row after resume = %+v", row)
	}
	c.send(TypeSessionResume, SessionResume{SessionID: "nope"})
	var e ConnectionError
	c.expect(TypeConnectionError, &e)
	if e.Code != CodeSessionNotFound {
		t.Errorf("code = %s", e.Code)
	}

	c.send(TypeSessionStart, map[string]any{})
	var started SessionStarted
	c.expect(TypeSessionStarted, &started)
	c.expect(TypeFSTree, nil)
	if row, _ := h.st.Session(ctx, first.ID); row.Status != coach.SessionAbandoned {
		t.Errorf("previous session status = %s, want abandoned", row.Status)
	}
	want := []coach.ActionType{coach.ActionSessionStarted, coach.ActionSessionEnded,
		coach.ActionSessionResumed, coach.ActionSessionEnded}
	if diff := cmp.Diff(want, h.actions(t, first.ID)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	c.send(TypeConnectionHello, ConnectionHello{})
	var init ConnectionInit
	c.expect(TypeConnectionInit, &init)
	if init.SessionID != started.SessionID {
		t.Errorf("connection:init sessionId = %q, want %q", init.SessionID, started.SessionID)
	}
}

// Scenario 5.7: model-driven messages are routed, validated, logged and
// answered NOT_IMPLEMENTED until the model issue plugs them in.
func TestSeamsAnswerNotImplemented(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	sess, err := h.sess.Start(context.Background(), session.StartInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{TypeUserExplain, TypeUserReview, TypePracticeSubmitSolution, TypeDashboardRequest, TypeDashboardRefreshIssues,
		TypeRefreshMaterials} {
		t.Run(typ, func(t *testing.T) {
			c.send(typ, map[string]any{"path": "main.go", "kataId": "k1", "selectedText": "x"})
			var e ConnectionError
			c.expect(TypeConnectionError, &e)
			if e.Code != CodeNotImplemented || e.Context["type"] != typ {
				t.Errorf("got %+v", e)
			}
		})
	}
	c.send(TypeDashboardRequest, map[string]any{"statsPeriod": "1y"})
	var e ConnectionError
	c.expect(TypeConnectionError, &e)
	if e.Code != CodeInvalidPayload {
		t.Errorf("bad statsPeriod: code = %s", e.Code)
	}
	want := []coach.ActionType{coach.ActionSessionStarted, coach.ActionExplainRequested, coach.ActionReviewRequested}
	if diff := cmp.Diff(want, h.actions(t, sess.ID)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}

func TestExtensionReplacesSeam(t *testing.T) {
	called := make(chan UserExplain, 1)
	h := newHarness(t, Options{Extensions: Extensions{Explain: func(ctx context.Context, req *Request) error {
		v, err := DecodePayload[UserExplain](req.Envelope)
		if err != nil {
			return err
		}
		called <- v
		req.Broadcast(TypeExplainResponse, ExplainResponse{Path: v.Path, Explanation: "it prints"})
		return nil
	}}})
	c := h.dial(t)
	c.send(TypeUserExplain, UserExplain{Path: "main.go", SelectedText: "main"})
	var r ExplainResponse
	c.expect(TypeExplainResponse, &r)
	if r.Explanation != "it prints" || (<-called).Path != "main.go" {
		t.Errorf("got %+v", r)
	}
}

// observer:mute: ignored without a session (EC-70); toggles, logs and
// broadcasts observer:status with one.
func TestObserverMute(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	c.send(TypeObserverMute, map[string]any{"muted": true})
	c.send(TypeObserverMute, map[string]any{}) // invalid: muted missing
	var e ConnectionError
	c.expect(TypeConnectionError, &e) // the first message produced nothing
	if e.Code != CodeInvalidPayload {
		t.Errorf("code = %s", e.Code)
	}
	if h.sess.Muted() {
		t.Error("muted without a session")
	}
	sess, _ := h.sess.Start(context.Background(), session.StartInput{})
	c.send(TypeObserverMute, map[string]any{"muted": true})
	var st ObserverStatus
	c.expect(TypeObserverStatus, &st)
	if !st.Muted || !h.sess.Muted() {
		t.Errorf("status = %+v", st)
	}
	if diff := cmp.Diff([]coach.ActionType{coach.ActionSessionStarted, coach.ActionObserverMuted}, h.actions(t, sess.ID)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}

// Scenario 5.10 / EC-03: a disconnect removes the connection; the server goes on.
func TestDisconnectCleanup(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	c2 := h.dial(t)
	c.send(TypeConnectionHello, ConnectionHello{})
	c.expect(TypeConnectionInit, nil)
	c2.send(TypeConnectionHello, ConnectionHello{})
	c2.expect(TypeConnectionInit, nil)
	c.ws.CloseNow()
	waitFor(t, func() bool { return h.srv.Hub().Len() == 1 })
	h.srv.Hub().Broadcast(TypeExplorerClearHints, Empty{}) // scenario 5.9
	c2.expect(TypeExplorerClearHints, nil)
}

func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Scenario 5.6: watcher events become fs:tree_update broadcasts.
func TestWatcherTreeUpdates(t *testing.T) {
	h := newHarness(t, Options{})
	wt, err := h.ws.Watch(&workspace.WatchOptions{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { ForwardTreeUpdates(h.srv.Hub(), wt.Events(), TreeUpdateOptions{Tree: h.ws.Tree}); close(done) }()
	c := h.dial(t)
	waitFor(t, func() bool { return h.srv.Hub().Len() == 1 })
	if err := os.WriteFile(filepath.Join(h.project, "new.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var upd FSTreeUpdate
	c.expect(TypeFSTreeUpdate, &upd)
	if upd.Action != "add" || upd.Path != "new.go" {
		t.Errorf("fs:tree_update = %+v", upd)
	}
	if err := os.Remove(filepath.Join(h.project, "new.go")); err != nil {
		t.Fatal(err)
	}
	c.expect(TypeFSTreeUpdate, &upd)
	if upd.Action != "unlink" || upd.Path != "new.go" {
		t.Errorf("fs:tree_update = %+v", upd)
	}
	wt.Close()
	<-done // the forwarder ends with the watcher
}
