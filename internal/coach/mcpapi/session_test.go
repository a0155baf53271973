package mcpapi

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/workspace"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// Scenario 6.17: session tools without a session answer "No active session".
func TestNoActiveSession(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		tool string
		args any
	}{
		{"paige_get_session_state", StateIn{}},
		{"paige_update_phase", PhaseIn{Phase: 1, Status: coach.PhaseActive}},
	} {
		if msg := h.call(t, c.tool, c.args, nil); msg != "No active session" {
			t.Errorf("%s: got %q, want No active session", c.tool, msg)
		}
	}
	// EC-35 and the rest: tools without session context still work.
	if msg := h.call(t, "paige_show_message", MessageIn{Message: "hi", Type: "info"}, nil); msg != "" {
		t.Errorf("show_message: %s", msg)
	}
	if got := h.hub.take(); len(got) != 1 {
		t.Errorf("broadcasts = %+v", got)
	}
}

// Scenarios 6.6, 6.7, EC-33, EC-37.
func TestGetSessionState(t *testing.T) {
	h := newHarness(t)
	sess := h.start(t)
	var all map[string]json.RawMessage
	h.call(t, "paige_get_session_state", StateIn{}, &all)
	var keys []string
	for k := range all {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := slices.Clone(StateItems)
	slices.Sort(want)
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("all items (-want +got):\n%s", diff)
	}
	if string(all["plan"]) != "null" || string(all["phase"]) != "null" { // EC-37
		t.Errorf("plan = %s, phase = %s, want null", all["plan"], all["phase"])
	}
	var empty map[string]json.RawMessage
	h.call(t, "paige_get_session_state", StateIn{Include: []string{}}, &empty) // EC-33
	if len(empty) != 9 {
		t.Errorf("empty include returned %d items", len(empty))
	}

	_, phases := h.plan(t, sess)
	if _, err := h.st.AddProgressEvent(context.Background(), phases[0].ID, "hint_used", json.RawMessage(`{"level":"file"}`)); err != nil {
		t.Fatal(err)
	}
	line := 2
	if _, err := h.st.CreatePhaseHint(context.Background(), coach.PhaseHint{PhaseID: phases[0].ID, Type: coach.HintTypeLine, Path: "src/auth.ts", StartLine: &line, EndLine: &line, Style: "hint"}); err != nil {
		t.Fatal(err)
	}
	h.ws.UpdateBuffer("src/auth.ts", "changed\n", workspace.Cursor{Line: 1})
	var some map[string]json.RawMessage
	h.call(t, "paige_get_session_state", StateIn{Include: []string{"phase", "diffs"}}, &some) // 6.6
	if len(some) != 2 {
		t.Fatalf("filtered returned %v", some)
	}
	var ph map[string]any
	_ = json.Unmarshal(some["phase"], &ph)
	if ph["number"] != 1.0 || ph["title"] != "Read the auth flow" || ph["status"] != "pending" {
		t.Errorf("phase = %v", ph)
	}
	if !strings.Contains(string(some["diffs"]), "src/auth.ts") {
		t.Errorf("diffs = %s", some["diffs"])
	}
	h.call(t, "paige_get_session_state", StateIn{}, &all)
	for _, item := range []string{"progress", "hints", "plan", "session", "buffers"} {
		if len(all[item]) < 5 {
			t.Errorf("%s = %s", item, all[item])
		}
	}
	if !strings.Contains(string(all["progress"]), "hint_used") || !strings.Contains(string(all["hints"]), `"lineHints":[{`) {
		t.Errorf("progress = %s, hints = %s", all["progress"], all["hints"])
	}
	if msg := h.call(t, "paige_get_session_state", StateIn{Include: []string{"weather"}}, nil); msg == "" {
		t.Error("unknown item accepted")
	}
}

// Scenarios 6.13, 6.14, EC-31, EC-32.
func TestUpdatePhase(t *testing.T) {
	h := newHarness(t)
	sess := h.start(t)
	_, phases := h.plan(t, sess)
	h.hub.take()

	var out PhaseOut
	if msg := h.call(t, "paige_update_phase", PhaseIn{Phase: 1, Status: coach.PhaseActive}, &out); msg != "" {
		t.Fatal(msg)
	}
	if !out.Success || !out.Changed || out.Phase.ID != phases[0].ID || out.Phase.Status != "active" {
		t.Errorf("activate: %+v", out)
	}
	row, _ := h.st.Phase(context.Background(), phases[0].ID)
	if row.Status != coach.PhaseActive || row.StartedAt == nil {
		t.Errorf("row = %+v", row)
	}
	var upd wsapi.PhaseUpdate
	h.takeOne(t, wsapi.TypeCoachingPhaseUpdate, &upd)
	if upd.Status != "active" || upd.Phase.Number != 1 || upd.Description != "step" {
		t.Errorf("coaching:phase_update = %+v", upd)
	}

	h.call(t, "paige_update_phase", PhaseIn{Phase: 1, Status: coach.PhaseActive}, &out) // EC-32
	if !out.Success || out.Changed {
		t.Errorf("same status: %+v", out)
	}
	if got := h.hub.take(); len(got) != 0 {
		t.Errorf("no-op broadcast %+v", got)
	}
	h.call(t, "paige_update_phase", PhaseIn{Phase: 1, Status: coach.PhaseComplete}, &out)
	row, _ = h.st.Phase(context.Background(), phases[0].ID)
	if row.Status != coach.PhaseComplete || row.CompletedAt == nil {
		t.Errorf("completed row = %+v", row)
	}
	if msg := h.call(t, "paige_update_phase", PhaseIn{Phase: 9, Status: coach.PhaseActive}, nil); !strings.Contains(msg, "phase 9") { // EC-31
		t.Errorf("missing phase: %q", msg)
	}
	if msg := h.call(t, "paige_update_phase", map[string]any{"phase": 1, "status": "done"}, nil); msg == "" {
		t.Error("bad status accepted")
	}
	want := []coach.ActionType{coach.ActionSessionStarted,
		coach.ActionMCPToolCall, coach.ActionPhaseStarted,
		coach.ActionMCPToolCall,
		coach.ActionMCPToolCall, coach.ActionPhaseCompleted,
		coach.ActionMCPToolCall, coach.ActionMCPToolCall}
	if diff := cmp.Diff(want, h.actions(t, sess.ID)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}

// Scenarios 6.15, 6.16.
func TestShowMessageAndIssue(t *testing.T) {
	h := newHarness(t)
	sess := h.start(t)
	h.call(t, "paige_show_message", MessageIn{Message: "Nice work!", Type: "success"}, nil)
	h.call(t, "paige_show_message", map[string]any{"message": "look here", "type": "hint",
		"anchor": map[string]any{"path": "./src/auth.ts", "startLine": 2}}, nil)
	h.call(t, "paige_show_issue_context", map[string]any{"title": "Fix OAuth race condition", "summary": "Two logins race."}, nil)
	h.call(t, "paige_show_issue_context", IssueIn{Title: "T", Summary: "S", Number: 12, Labels: []string{"bug"}, URL: "https://x/12"}, nil)
	if msg := h.call(t, "paige_show_issue_context", map[string]any{"title": "only a title"}, nil); msg == "" {
		t.Error("issue without summary accepted")
	}
	if msg := h.call(t, "paige_show_message", map[string]any{"message": " "}, nil); msg == "" {
		t.Error("empty message accepted")
	}
	var got []string
	for _, m := range h.hub.take() {
		got = append(got, m.Type+" "+string(m.Payload))
	}
	want := []string{
		`coaching:message {"message":"Nice work!","type":"success"}`,
		`coaching:message {"message":"look here","type":"hint","anchor":{"path":"src/auth.ts","startLine":2}}`,
		`coaching:issue_context {"title":"Fix OAuth race condition","summary":"Two logins race."}`,
		`coaching:issue_context {"number":12,"title":"T","summary":"S","labels":["bug"],"url":"https://x/12"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("broadcasts (-want +got):\n%s", diff)
	}
	acts := h.actions(t, sess.ID)
	if count(acts, coach.ActionCoachingMessage) != 2 || count(acts, coach.ActionMCPToolCall) != 6 {
		t.Errorf("actions = %v", acts)
	}
}
