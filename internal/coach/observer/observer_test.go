package observer

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// Scenario 10.1: starting broadcasts observer:status active, unmuted, never evaluated.
func TestStartBroadcastsStatus(t *testing.T) {
	h := newHarness(t)
	want := []message{{typeObserverStatus, map[string]any{"active": true, "muted": false, "lastEvaluation": nil}}}
	if diff := cmp.Diff(want, h.hub.all()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if st := h.m.Status(); !st.Active || st.Muted {
		t.Errorf("Status: got %+v", st)
	}
}

// seedOAuthPhase stores an active phase expecting src/handlers/oauth.ts, an
// advanced_beginner assessment and a save 2 minutes before now (written
// straight to SQLite: earlier activity, not a trigger).
func seedOAuthPhase(t *testing.T, h *harness) {
	t.Helper()
	ctx := context.Background()
	plan, err := h.st.CreatePlan(ctx, h.sid, "plan")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "OAuth callback", Status: coach.PhaseActive,
		Description: "Find and understand the OAuth callback handler", ExpectedFiles: []string{"src/handlers/oauth.ts"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "auth", Stage: coach.AdvancedBeginner, Confidence: 0.6}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.InsertAction(ctx, h.sid, coach.ActionFileSave, json.RawMessage(`{"path":"src/app.ts","charCount":10}`)); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(2 * time.Minute)
}

// checkTriageRequest asserts the one triage request: Haiku, the triage
// prompt and schema, and the full snapshot (FR-137).
func checkTriageRequest(t *testing.T, reqs []llmtest.Request) {
	t.Helper()
	if len(reqs) != 1 {
		t.Fatalf("triage calls: got %d, want 1", len(reqs))
	}
	req := reqs[0]
	if req.Model != config.DefaultModelHaiku || req.System != observertriage.SystemPrompt || req.Schema() == nil {
		t.Errorf("request: model %q, system ok %v, schema %v", req.Model, req.System == observertriage.SystemPrompt, req.Schema() != nil)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(req.LastUserText()), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"current_phase": map[string]any{"number": 1.0, "title": "OAuth callback",
			"description": "Find and understand the OAuth callback handler", "expected_files": []any{"src/handlers/oauth.ts"}},
		"recent_actions": []any{
			map[string]any{"type": "file_save", "path": "src/app.ts", "ago": "2m00s ago"},
			map[string]any{"type": "file_open", "path": "src/middleware/auth.ts", "ago": "0s ago"},
		},
		"time_since_last_save": "2m00s", "time_since_last_nudge": "never", "dreyfus_stage": "advanced_beginner", "user_idle": false,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
}

// Scenario 10.3 and SC-064/065: a file_open with the user in the wrong file
// calls Haiku with the full snapshot; the nudge is logged and broadcast.
func TestFileOpenNudge(t *testing.T) {
	h := newHarness(t)
	seedOAuthPhase(t, h)
	h.evaluate(t, triage(true, 0.85, "wrong_file"), coach.ActionFileOpen, "src/middleware/auth.ts")
	checkTriageRequest(t, h.llm.Requests())

	sent := h.actions(t, coach.ActionNudgeSent)
	if len(sent) != 1 {
		t.Fatalf("nudge_sent rows: got %d, want 1", len(sent))
	}
	if diff := cmp.Diff(map[string]any{"signal": "wrong_file", "confidence": 0.85}, data(t, sent[0])); diff != "" {
		t.Errorf("nudge_sent data (-want +got):\n%s", diff)
	}
	wantNudge := []message{{typeObserverNudge, map[string]any{"signal": "wrong_file", "confidence": 0.85,
		"context": map[string]any{"current_file": "src/middleware/auth.ts", "expected_file": "src/handlers/oauth.ts",
			"time_in_file": "3m12s", "phase_description": nil}}}}
	if diff := cmp.Diff(wantNudge, h.hub.ofType(typeObserverNudge)); diff != "" {
		t.Errorf("observer:nudge (-want +got):\n%s", diff)
	}
	if st := h.m.Status(); st.LastEvaluation == nil || *st.LastEvaluation != "2026-02-11T12:02:00.000Z" {
		t.Errorf("lastEvaluation: got %v", st.LastEvaluation)
	}
	calls, err := h.st.APICalls(context.Background(), store.APICallFilter{SessionID: h.sid}, 10)
	if err != nil || len(calls) != 1 || calls[0].CallType != observertriage.CallType || calls[0].InputTokens != 300 {
		t.Errorf("api_call_log: got %+v, %v", calls, err)
	}
}

// Scenario 10.7 and SC-066: 90 s after a nudge a trigger is suppressed by
// the cooldown and logged; at 120 s triage runs again.
func TestCooldown(t *testing.T) {
	h := newHarness(t)
	h.evaluate(t, triage(true, 0.85, "wrong_file"), coach.ActionFileOpen, "src/middleware/auth.ts")
	h.clock.Advance(90 * time.Second)
	h.act(t, coach.ActionFileSave, map[string]any{"path": "src/middleware/auth.ts"})
	h.noEval(t, 1)
	sup := h.actions(t, coach.ActionNudgeSuppressed)
	if len(sup) != 1 || data(t, sup[0])["reason"] != "cooldown" {
		t.Fatalf("nudge_suppressed: got %v", sup)
	}
	h.clock.Advance(30 * time.Second)
	h.evaluate(t, triage(false, 0.2, "no_nudge"), coach.ActionFileSave, "src/middleware/auth.ts")
	h.noEval(t, 2)
	var ctxSent map[string]any
	json.Unmarshal([]byte(h.llm.Requests()[1].LastUserText()), &ctxSent)
	if ctxSent["time_since_last_nudge"] != "2m00s" {
		t.Errorf("time_since_last_nudge: got %v, want 2m00s", ctxSent["time_since_last_nudge"])
	}
}

// Scenarios 10.4 and SC-071: the 5th buffer update triggers and resets the counter.
func TestBufferUpdatesTrigger(t *testing.T) {
	h := newHarness(t)
	h.llm.Handle(func(llmtest.Request) llmtest.Response { return triage(false, 0.1, "no_nudge") })
	for range 4 {
		h.clock.Advance(10 * time.Second)
		h.edit(t)
	}
	h.noEval(t, 0)
	h.clock.Advance(10 * time.Second)
	h.edit(t)
	h.waitEval(t)
	h.noEval(t, 1)
	for range 4 {
		h.clock.Advance(10 * time.Second)
		h.edit(t)
	}
	h.noEval(t, 1) // counter reset after the evaluation
	// Scenario 10.10: a quiet reply logs nothing and updates lastEvaluation.
	if n := len(h.actions(t, coach.ActionNudgeSent, coach.ActionNudgeSuppressed)); n != 0 {
		t.Errorf("quiet reply logged %d rows", n)
	}
	if h.m.Status().LastEvaluation == nil {
		t.Error("lastEvaluation not set after a quiet reply")
	}
}

// Scenario 10.6 and EC-73: phase transitions trigger; the second one in a row
// finds the first evaluation in flight (EC-65) and is skipped silently.
func TestPhaseTransitionsAndInProgress(t *testing.T) {
	h := newHarness(t)
	release := h.holdTriage(triage(false, 0.1, "no_nudge"))
	h.act(t, coach.ActionPhaseCompleted, map[string]any{"phaseNumber": 1})
	h.llm.WaitRequests(t, 1, 5*time.Second)
	h.act(t, coach.ActionPhaseStarted, map[string]any{"phaseNumber": 2})
	release()
	h.waitEval(t)
	h.noEval(t, 1)
	if n := len(h.actions(t, coach.ActionNudgeSuppressed)); n != 0 {
		t.Errorf("in-progress skip logged %d rows, want silent", n)
	}
	h.act(t, coach.ActionPhaseStarted, map[string]any{"phaseNumber": 2})
	h.waitEval(t)
	h.noEval(t, 2)
}

// Scenario 10.8 and EC-69: more than 10 actions in 60 s suppress with flow_state.
func TestFlowState(t *testing.T) {
	h := newHarness(t)
	for range 11 {
		h.clock.Advance(2 * time.Second)
		h.act(t, coach.ActionSelection, map[string]any{"path": "a.ts"})
	}
	h.act(t, coach.ActionFileSave, map[string]any{"path": "a.ts"})
	h.noEval(t, 0)
	sup := h.actions(t, coach.ActionNudgeSuppressed)
	if len(sup) != 1 || data(t, sup[0])["reason"] != "flow_state" {
		t.Fatalf("nudge_suppressed: got %v", sup)
	}
}

// Scenario 10.9 and EC-72: should_nudge with confidence 0.5 is suppressed and logged.
func TestLowConfidence(t *testing.T) {
	h := newHarness(t)
	h.evaluate(t, triage(true, 0.5, "scope_drift"), coach.ActionFileOpen, "a.ts")
	sup := h.actions(t, coach.ActionNudgeSuppressed)
	if len(sup) != 1 {
		t.Fatalf("nudge_suppressed rows: got %d, want 1", len(sup))
	}
	want := map[string]any{"signal": "scope_drift", "confidence": 0.5, "reason": "low_confidence"}
	if diff := cmp.Diff(want, data(t, sup[0])); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if n := len(h.hub.ofType(typeObserverNudge)); n != 0 {
		t.Errorf("observer:nudge sent %d times", n)
	}
}

// EC-67: should_nudge with signal no_nudge is contradictory: no nudge, no row.
func TestContradictoryReply(t *testing.T) {
	h := newHarness(t)
	h.evaluate(t, triage(true, 0.95, "no_nudge"), coach.ActionFileOpen, "a.ts")
	if n := len(h.actions(t, coach.ActionNudgeSent, coach.ActionNudgeSuppressed)); n != 0 {
		t.Errorf("contradictory reply logged %d rows", n)
	}
	if n := len(h.hub.ofType(typeObserverNudge)); n != 0 {
		t.Errorf("observer:nudge sent %d times", n)
	}
}

// Scenario 10.14 and SC-070: a failing call is logged in api_call_log and
// the Observer keeps working.
func TestTriageFailure(t *testing.T) {
	h := newHarness(t)
	h.llm.Enqueue(llmtest.Error(500, "api_error", "boom"))
	h.act(t, coach.ActionFileOpen, map[string]any{"path": "a.ts"})
	h.waitEval(t)
	calls, err := h.st.APICalls(context.Background(), store.APICallFilter{SessionID: h.sid}, 10)
	if err != nil || len(calls) != llm.DefaultMaxAttempts {
		t.Fatalf("api_call_log: got %+v, %v; want every attempt", calls, err)
	}
	for _, c := range calls {
		if c.LatencyMs != -1 {
			t.Errorf("failed attempt logged as %+v", c)
		}
	}
	if n := len(h.hub.ofType(typeObserverNudge)); n != 0 {
		t.Errorf("after a failed triage: got %d nudges", n)
	}
	h.evaluate(t, triage(true, 0.9, "wrong_file"), coach.ActionFileOpen, "b.ts")
	if n := len(h.hub.ofType(typeObserverNudge)); n != 1 {
		t.Errorf("after a failure: got %d nudges, want 1", n)
	}
}

// Triage is a one-shot call, and it retries like every other: a transient
// failure costs one logged attempt, and the nudge still comes.
func TestTriageRetries(t *testing.T) {
	h := newHarness(t)
	seedOAuthPhase(t, h)
	h.llm.Enqueue(llmtest.Error(529, "overloaded_error", "busy"), triage(true, 0.85, "wrong_file"))
	h.act(t, coach.ActionFileOpen, map[string]any{"path": "src/middleware/auth.ts"})
	h.waitEval(t)
	if n := len(h.hub.ofType(typeObserverNudge)); n != 1 {
		t.Errorf("nudges: got %d, want 1 after the retry", n)
	}
	calls, err := h.st.APICalls(context.Background(), store.APICallFilter{SessionID: h.sid}, 10)
	if err != nil || len(calls) != 2 || calls[0].LatencyMs != -1 || calls[1].LatencyMs < 0 {
		t.Errorf("api_call_log: got %+v, %v; want a failed then a successful attempt", calls, err)
	}
}

// Scenario 10.5: the idle timer fires after 5 minutes of inactivity with
// user_idle true; while the user stays idle the timer keeps triggering
// every 30 s, suppressed during the cooldown.
func TestIdleTimer(t *testing.T) {
	h := newHarness(t)
	tk := h.clock.lastTicker()
	h.clock.Advance(4 * time.Minute)
	tk.c <- h.clock.Now()
	h.sync(t)
	h.noEval(t, 0)
	h.clock.Advance(90 * time.Second)
	h.llm.Enqueue(triage(true, 0.8, "idle"))
	tk.c <- h.clock.Now()
	h.waitEval(t)
	req := h.llm.Requests()[0]
	var ctxSent map[string]any
	if err := json.Unmarshal([]byte(req.LastUserText()), &ctxSent); err != nil {
		t.Fatal(err)
	}
	if ctxSent["user_idle"] != true || ctxSent["current_phase"] != nil || ctxSent["dreyfus_stage"] != "novice" {
		t.Errorf("idle snapshot: got %v", ctxSent)
	}
	if n := h.hub.ofType(typeObserverNudge); len(n) != 1 || n[0].Payload["signal"] != "idle" {
		t.Errorf("idle nudge: got %v", n)
	}
	// Still idle: every 30 s tick triggers (FR-132, NOTES.md), with the
	// suppression rules applied — inside the cooldown, suppressed and logged
	// once for the stretch; after it, evaluated again.
	for range 2 {
		h.clock.Advance(30 * time.Second)
		tk.c <- h.clock.Now()
		h.sync(t)
	}
	h.noEval(t, 1)
	if sup := h.actions(t, coach.ActionNudgeSuppressed); len(sup) != 1 || data(t, sup[0])["reason"] != "cooldown" {
		t.Fatalf("nudge_suppressed in the cooldown: got %v, want one cooldown row", sup)
	}
	for want := 2; want <= 3; want++ {
		h.clock.Advance(90 * time.Second)
		h.llm.Enqueue(triage(false, 0.2, "no_nudge"))
		tk.c <- h.clock.Now()
		h.waitEval(t)
		h.noEval(t, want)
	}
}

// Issue 13: 40 buffer updates inside the cooldown are 8 triggers (every 5th
// update) and one nudge_suppressed row for the stretch, not one per trigger
// (40 updates used to give 31 rows); once an evaluation ran, the next
// suppressed stretch is logged again.
func TestSuppressedOncePerStretch(t *testing.T) {
	h := newHarness(t)
	h.evaluate(t, triage(true, 0.85, "wrong_file"), coach.ActionFileOpen, "a.ts")
	h.clock.Advance(30 * time.Second)
	for range 40 {
		h.edit(t)
	}
	h.noEval(t, 1)
	if sup := h.actions(t, coach.ActionNudgeSuppressed); len(sup) != 1 || data(t, sup[0])["reason"] != "cooldown" {
		t.Fatalf("nudge_suppressed after 40 updates in the cooldown: got %d rows %v, want one cooldown row", len(sup), sup)
	}

	h.clock.Advance(2 * time.Minute) // the cooldown is over: evaluated again, no nudge
	h.evaluate(t, triage(false, 0.2, "no_nudge"), coach.ActionFileSave, "a.ts")
	h.clock.Advance(2 * time.Minute)
	h.evaluate(t, triage(true, 0.9, "wrong_file"), coach.ActionFileSave, "a.ts")
	h.clock.Advance(10 * time.Second)
	for range 10 {
		h.edit(t)
	}
	h.noEval(t, 3)
	if sup := h.actions(t, coach.ActionNudgeSuppressed); len(sup) != 2 {
		t.Fatalf("nudge_suppressed after a second stretch: got %d rows, want 2", len(sup))
	}
}
