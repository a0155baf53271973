package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/issueassessment"
	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// withFakeGH returns env with a PATH holding only an executable `gh` that
// prints out (the machine's own gh, if any, is never found).
func withFakeGH(t *testing.T, env map[string]string, out string) map[string]string {
	t.Helper()
	bin := t.TempDir()
	script := "#!/bin/sh\ncat <<'EOF'\n" + out + "\nEOF\n"
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env["PATH"] = bin
	return env
}

// TestServeDashboard drives story 12 through the real server:
// dashboard:request answers dashboard:state, then dashboard:issues from gh
// found on PATH and scripted Sonnet.
func TestServeDashboard(t *testing.T) {
	fake := llmtest.NewServer(t)
	s := startServe(t, withFakeGH(t, modelEnv(t, fake), `[{"number":5,"title":"Handle OAuth errors","body":"b","labels":[],"assignees":[],"comments":[]}]`))
	editor := s.ws(t)
	fake.Enqueue(llmtest.JSON(map[string]any{"issues": []any{map[string]any{
		"number": 5, "title": "x", "summary": "Good first step", "suitability": "good_fit", "suitability_reason": "r",
		"estimated_difficulty": "beginner", "relevant_skills": []any{"oauth"}, "priority_score": 0.9,
		"priority_factors":       map[string]any{"user_tagged": false, "similar_to_recent_work": false, "addresses_knowledge_gap": false, "team_urgency": "low"},
		"learning_opportunities": []any{"errors"},
	}}}))
	editor.send(wsapi.TypeDashboardRequest, map[string]any{"statsPeriod": "30d"})
	var state wsapi.DashboardState
	editor.expect(wsapi.TypeDashboardState, &state)
	if state.Stats.Period != "30d" || state.Stats.SessionsCompleted != 0 || state.Dreyfus == nil {
		t.Errorf("dashboard:state: got %+v", state)
	}
	var issues wsapi.DashboardIssues
	editor.expect(wsapi.TypeDashboardIssues, &issues)
	if len(issues.Issues) != 1 || issues.Issues[0].Title != "Handle OAuth errors" {
		t.Errorf("dashboard:issues: got %+v", issues)
	}
	if r := fake.Requests()[0]; r.System != issueassessment.SystemPrompt || r.Model != config.DefaultModelSonnet {
		t.Errorf("issue assessment request: model %q", r.Model)
	}
}

// TestServeObserver drives story 10 through the real server: a session
// starts the Observer; observer:mute is logged and broadcast; a file:open
// triggers Haiku triage and the nudge reaches the editor; session:end stops
// the Observer.
func TestServeObserver(t *testing.T) {
	fake := llmtest.NewServer(t)
	s := startServe(t, modelEnv(t, fake))
	editor := s.ws(t)
	// The Observer starts inside the session start, so its status comes
	// just before session:started.
	editor.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 5, "issueTitle": "Handle OAuth errors"})
	var st wsapi.ObserverStatus
	editor.expect(wsapi.TypeObserverStatus, &st)
	var started wsapi.SessionStarted
	editor.expect(wsapi.TypeSessionStarted, &started)
	if !st.Active || st.Muted {
		t.Errorf("observer:status at start: got %+v", st)
	}
	editor.send(wsapi.TypeObserverMute, map[string]any{"muted": true})
	editor.expect(wsapi.TypeObserverStatus, &st)
	if !st.Active || !st.Muted {
		t.Errorf("observer:status after mute: got %+v", st)
	}
	editor.send(wsapi.TypeObserverMute, map[string]any{"muted": false})
	editor.expect(wsapi.TypeObserverStatus, &st)

	fake.Enqueue(llmtest.JSON(map[string]any{"should_nudge": true, "confidence": 0.9, "signal": "wrong_file", "reasoning": "r",
		"suggested_context": map[string]any{"current_file": "src/auth.ts", "expected_file": nil, "time_in_file": nil, "phase_description": nil}}))
	editor.send(wsapi.TypeFileOpen, map[string]any{"path": "src/auth.ts"})
	var nudge wsapi.ObserverNudge
	editor.expect(wsapi.TypeObserverNudge, &nudge)
	if nudge.Signal != "wrong_file" || nudge.Confidence != 0.9 || nudge.Context["current_file"] != "src/auth.ts" {
		t.Errorf("observer:nudge: got %+v", nudge)
	}
	if r := fake.Requests()[0]; r.System != observertriage.SystemPrompt || r.Model != config.DefaultModelHaiku || r.Schema() == nil {
		t.Errorf("triage request: model %q", r.Model)
	}
	checkObserverRows(t, s, started.SessionID)
	editor.send(wsapi.TypeSessionEnd, map[string]any{})
	editor.expect(wsapi.TypeObserverStatus, &st)
	if st.Active || st.Muted {
		t.Errorf("observer:status at end: got %+v", st)
	}
}

// checkObserverRows asserts the Observer's rows in SQLite.
func checkObserverRows(t *testing.T, s *served, sid string) {
	t.Helper()
	db := openDB(t, s)
	if got := actionsOf(t, db, sid, coach.ActionObserverMuted, 2); len(got) != 2 {
		t.Errorf("observer_muted rows: got %d, want 2", len(got))
	}
	if got := actionsOf(t, db, sid, coach.ActionNudgeSent, 1); len(got) != 1 || dataOf(t, got[0])["signal"] != "wrong_file" {
		t.Errorf("nudge_sent rows: got %v", got)
	}
	if got := apiCalls(t, db, observertriage.CallType); len(got) != 1 || got[0].SessionID != sid {
		t.Errorf("api_call_log observer_triage: got %+v", got)
	}
}

// TestServeNoMessageNotImplemented: with the model-driven stories wired,
// no client message of the catalog is answered NOT_IMPLEMENTED any more
// (issue 3's proof). Every seam message is sent with a valid payload; the
// seam's NOT_IMPLEMENTED would come back before connection:init.
func TestServeNoMessageNotImplemented(t *testing.T) {
	s := startServe(t, serveEnv(t))
	editor := s.ws(t)
	valid := map[string]any{
		wsapi.TypeUserExplain:            map[string]any{"path": "src/auth.ts", "selectedText": "login"},
		wsapi.TypeUserReview:             map[string]any{"kataId": "k1", "userCode": "x"},
		wsapi.TypePracticeSubmitSolution: map[string]any{"kataId": "k1", "code": "x"},
		wsapi.TypeDashboardRequest:       map[string]any{},
		wsapi.TypeDashboardRefreshIssues: map[string]any{},
		wsapi.TypeRefreshMaterials:       map[string]any{},
		wsapi.TypeObserverMute:           map[string]any{"muted": true},
		wsapi.TypePracticeOpen:           map[string]any{"kataId": "k1"},
	}
	for _, m := range wsapi.Catalog {
		if m.Direction != wsapi.ClientToServer || m.Status != wsapi.StatusSeam {
			continue
		}
		payload, ok := valid[m.Type]
		if !ok {
			t.Fatalf("seam message %s has no payload in this test", m.Type)
		}
		editor.send(m.Type, payload)
	}
	editor.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{Version: "1", Platform: "linux"})
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	for {
		env := editor.read(ctx, wsapi.TypeConnectionInit)
		if env.Type == wsapi.TypeConnectionInit {
			return
		}
		var e wsapi.ConnectionError
		if env.Type == wsapi.TypeConnectionError && json.Unmarshal(env.Payload, &e) == nil && e.Code == wsapi.CodeNotImplemented {
			t.Errorf("NOT_IMPLEMENTED: %s", env.Payload)
		}
	}
}
