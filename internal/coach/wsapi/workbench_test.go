package wsapi

import (
	"net/http"
	"testing"
)

// TestWorkbenchHelloTerminalStatus: connection:init carries the terminal
// status computed from the /ws upgrade request, and featureFlags.model.
func TestWorkbenchHelloTerminalStatus(t *testing.T) {
	var sawRequest bool
	h := newHarness(t, Options{ModelConfigured: true, Terminal: func(r *http.Request) TerminalStatus {
		sawRequest = r != nil && r.URL.Path == "/"
		return TerminalStatus{Available: true, Authorized: r.Header.Get("X-Test") == "", ClaudeInstall: "npm i", Shell: "/bin/sh"}
	}})
	c := h.dial(t)
	c.send(TypeConnectionHello, ConnectionHello{Version: "1"})
	var init ConnectionInit
	c.expect(TypeConnectionInit, &init)
	if !sawRequest {
		t.Error("Terminal was not called with the upgrade request")
	}
	want := TerminalStatus{Available: true, Authorized: true, ClaudeInstall: "npm i", Shell: "/bin/sh"}
	if init.Terminal == nil || *init.Terminal != want {
		t.Errorf("terminal: got %+v, want %+v", init.Terminal, want)
	}
	if !init.FeatureFlags["model"] {
		t.Errorf("featureFlags.model: got false, want true")
	}

	// Without a terminal the field is absent and model follows the option.
	h2 := newHarness(t, Options{})
	c2 := h2.dial(t)
	c2.send(TypeConnectionHello, ConnectionHello{Version: "1"})
	var init2 ConnectionInit
	c2.expect(TypeConnectionInit, &init2)
	if init2.Terminal != nil || init2.FeatureFlags["model"] {
		t.Errorf("no terminal, no model: got terminal %+v, model %v", init2.Terminal, init2.FeatureFlags["model"])
	}
}

// TestWorkbenchGetTreeAndState: fs:get_tree answers the sender only with
// the tree; session:get_state answers null without a session and the
// session's state with one, changing nothing.
func TestWorkbenchGetTreeAndState(t *testing.T) {
	h := newHarness(t, Options{})
	a, b := h.dial(t), h.dial(t)
	a.send(TypeFSGetTree, Empty{})
	var tree FSTree
	a.expect(TypeFSTree, &tree)
	if tree.Root == nil || len(tree.Root.Children) != 1 || tree.Root.Children[0].Path != "main.go" {
		t.Fatalf("tree: got %+v, want main.go", tree.Root)
	}

	a.send(TypeSessionGetState, Empty{})
	var none SessionState
	a.expect(TypeSessionState, &none)
	if none.RestoredState != nil {
		t.Errorf("no session: got %+v, want null", none.RestoredState)
	}

	n := 7
	a.send(TypeSessionStart, SessionStart{IssueNumber: &n, IssueTitle: "Fix it"})
	var started SessionStarted
	a.expect(TypeSessionStarted, &started)
	a.expect(TypeFSTree, nil)
	b.expect(TypeSessionStarted, nil)
	b.expect(TypeFSTree, nil)
	before := len(h.actions(t, started.SessionID))

	b.send(TypeSessionGetState, Empty{})
	var st SessionState
	b.expect(TypeSessionState, &st)
	rs := st.RestoredState
	if rs == nil || rs.SessionID != started.SessionID || rs.IssueContext == nil || rs.IssueContext.Title != "Fix it" || rs.StartedAt == "" {
		t.Errorf("state: got %+v, want the started session", rs)
	}
	if after := len(h.actions(t, started.SessionID)); after != before {
		t.Errorf("session:get_state logged %d actions, want none", after-before)
	}
	a.quiet(300e6) // the reply went to b only
}
