package observer

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
)

var t0 = time.Date(2026, 2, 11, 12, 0, 0, 0, time.UTC)

// burst returns n activity times ending at end, one second apart.
func burst(n int, end time.Time) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = end.Add(-time.Duration(n-1-i) * time.Second)
	}
	return out
}

func TestSuppress(t *testing.T) {
	tests := []struct {
		name  string
		state State
		want  Reason
	}{
		{"fresh", State{}, ReasonNone},
		{"muted wins over everything", State{Muted: true, LastNudge: t0.Add(-time.Second), Recent: burst(20, t0), Evaluating: true}, ReasonMuted},
		{"cooldown 90s after a nudge (10.7)", State{LastNudge: t0.Add(-90 * time.Second)}, ReasonCooldown},
		{"cooldown before flow state", State{LastNudge: t0.Add(-time.Minute), Recent: burst(12, t0)}, ReasonCooldown},
		{"cooldown over at 120s", State{LastNudge: t0.Add(-Cooldown)}, ReasonNone},
		{"12 actions in 60s is flow (10.8)", State{Recent: burst(12, t0)}, ReasonFlowState},
		{"11 actions is flow", State{Recent: burst(11, t0)}, ReasonFlowState},
		{"10 actions is not", State{Recent: burst(10, t0)}, ReasonNone},
		{"old actions do not count", State{Recent: burst(12, t0.Add(-2*time.Minute))}, ReasonNone},
		{"evaluation in progress (EC-65)", State{Evaluating: true}, ReasonBusy},
		{"flow before busy", State{Evaluating: true, Recent: burst(12, t0)}, ReasonFlowState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Suppress(&tt.state, t0); got != tt.want {
				t.Errorf("Suppress: got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReasonLogged(t *testing.T) {
	for r, want := range map[Reason]bool{ReasonNone: false, ReasonMuted: false, ReasonBusy: false,
		ReasonCooldown: true, ReasonFlowState: true, ReasonLowConfidence: true} {
		if got := r.Logged(); got != want {
			t.Errorf("%q.Logged(): got %v, want %v", r, got, want)
		}
	}
}

func TestObserveTriggers(t *testing.T) {
	tests := []struct {
		typ  coach.ActionType
		want Trigger
	}{
		{coach.ActionFileOpen, TriggerFileOpen},
		{coach.ActionFileSave, TriggerFileSave},
		{coach.ActionPhaseStarted, TriggerPhase},
		{coach.ActionPhaseCompleted, TriggerPhase},
		{coach.ActionFileClose, TriggerNone},
		{coach.ActionTabSwitch, TriggerNone},
		{coach.ActionNudgeSent, TriggerNone},
		{coach.ActionNudgeSuppressed, TriggerNone},
		{"unknown", TriggerNone},
	}
	for _, tt := range tests {
		t.Run(string(tt.typ), func(t *testing.T) {
			var s State
			if got := s.Observe(tt.typ, t0); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBufferThreshold(t *testing.T) {
	s := State{BufferUpdates: 4} // scenario 10.4
	if got := s.Observe(actionlog.EventBufferUpdate, t0); got != TriggerBufferEdits {
		t.Fatalf("5th update: got %q, want %q", got, TriggerBufferEdits)
	}
	s.BeginEvaluation(TriggerBufferEdits)
	if s.BufferUpdates != 0 || !s.Evaluating {
		t.Fatalf("after BeginEvaluation: got %d updates, evaluating %v; want 0, true", s.BufferUpdates, s.Evaluating)
	}
	for i := range 4 {
		if got := s.Observe(actionlog.EventBufferUpdate, t0); got != TriggerNone {
			t.Fatalf("update %d after reset: got %q, want none", i+1, got)
		}
	}
}

func TestActivity(t *testing.T) {
	s := State{LastActivity: t0}
	later := t0.Add(10 * time.Minute)
	for _, typ := range []coach.ActionType{coach.ActionNudgeSent, coach.ActionNudgeSuppressed, coach.ActionObserverMuted,
		coach.ActionIdleStart, coach.ActionPhaseStarted, coach.ActionMCPToolCall} {
		s.Observe(typ, later)
	}
	if !s.LastActivity.Equal(t0) || len(s.Recent) != 0 {
		t.Fatalf("system events counted as activity: last %v, recent %d", s.LastActivity, len(s.Recent))
	}
	s.Observe(coach.ActionSelection, later)
	if !s.LastActivity.Equal(later) || len(s.Recent) != 1 {
		t.Fatalf("user action: last %v, recent %d", s.LastActivity, len(s.Recent))
	}
	// The window keeps only the last minute.
	for i := range 30 {
		s.Observe(actionlog.EventBufferUpdate, later.Add(time.Duration(i)*10*time.Second))
	}
	if len(s.Recent) > 7 {
		t.Errorf("window not pruned: %d entries", len(s.Recent))
	}
}

// One nudge_suppressed per suppressed stretch: the same reason again is
// not logged; another reason, or an evaluation in between, is.
func TestNoteSuppressed(t *testing.T) {
	var s State
	logged := 0
	for range 40 {
		if s.NoteSuppressed(ReasonFlowState) {
			logged++
		}
	}
	if logged != 1 {
		t.Fatalf("40 flow-state suppressions logged %d rows, want 1", logged)
	}
	if !s.NoteSuppressed(ReasonCooldown) || s.NoteSuppressed(ReasonBusy) {
		t.Error("a new reason must log once; busy never logs")
	}
	s.BeginEvaluation(TriggerIdle)
	if !s.NoteSuppressed(ReasonCooldown) {
		t.Error("after an evaluation a new stretch logs again")
	}
}

func TestIdleTick(t *testing.T) {
	tests := []struct {
		name  string
		state State
		at    time.Duration
		want  Trigger
	}{
		{"active and idle 5m01s (10.5)", State{Active: true}, 5*time.Minute + time.Second, TriggerIdle},
		{"exactly 5m is not idle", State{Active: true}, 5 * time.Minute, TriggerNone},
		{"inactive (EC-71)", State{}, time.Hour, TriggerNone},
		{"idle stretch already evaluated: every 30 s tick triggers (FR-132)", State{Active: true, LastEvaluation: t0.Add(time.Hour)}, time.Hour + 30*time.Second, TriggerIdle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.state.LastActivity = t0
			if got := tt.state.IdleTick(t0.Add(tt.at)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		r    observertriage.Response
		want Outcome
	}{
		{"no nudge (10.10)", observertriage.Response{Signal: "no_nudge"}, OutcomeQuiet},
		{"nudge at 0.85 (10.3)", observertriage.Response{ShouldNudge: true, Confidence: 0.85, Signal: "wrong_file"}, OutcomeNudge},
		{"nudge at exactly 0.7", observertriage.Response{ShouldNudge: true, Confidence: 0.7, Signal: "idle"}, OutcomeNudge},
		{"low confidence (10.9)", observertriage.Response{ShouldNudge: true, Confidence: 0.5, Signal: "scope_drift"}, OutcomeLowConfidence},
		{"contradictory (EC-67)", observertriage.Response{ShouldNudge: true, Confidence: 0.9, Signal: "no_nudge"}, OutcomeContradictory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decide(tt.r); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAgo(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0s", 0: "0s", 12 * time.Second: "12s", 3*time.Minute + 12*time.Second: "3m12s",
		65 * time.Minute: "1h05m", 51 * time.Hour: "2d3h",
	} {
		if got := Ago(d); got != want {
			t.Errorf("Ago(%v): got %q, want %q", d, got, want)
		}
	}
	if got := Since(time.Time{}, t0); got != "never" {
		t.Errorf("Since(zero): got %q, want never", got)
	}
}

func TestBuildContext(t *testing.T) {
	phase := &coach.Phase{Number: 2, Title: "OAuth", Description: "Find the callback handler", Status: coach.PhaseActive,
		ExpectedFiles: []string{"src/handlers/oauth.ts"}}
	snap := Snapshot{
		Phase: phase,
		Actions: []coach.Action{
			{Type: coach.ActionFileOpen, Data: json.RawMessage(`{"path":"src/middleware/auth.ts"}`), CreatedAt: t0.Add(-3*time.Minute - 12*time.Second)},
			{Type: coach.ActionTabSwitch, Data: json.RawMessage(`{"fromPath":"a","toPath":"b.ts"}`), CreatedAt: t0.Add(-time.Minute)},
			{Type: coach.ActionIdleEnd, CreatedAt: t0},
		},
		LastSave:     t0.Add(-5 * time.Minute),
		Dreyfus:      []coach.DreyfusAssessment{{Stage: coach.Competent, AssessedAt: t0.Add(-time.Hour)}, {Stage: coach.AdvancedBeginner, AssessedAt: t0.Add(-time.Minute)}},
		LastActivity: t0.Add(-6 * time.Minute),
	}
	want := observertriage.Context{
		CurrentPhase: &observertriage.Phase{Number: 2, Title: "OAuth", Description: "Find the callback handler", ExpectedFiles: []string{"src/handlers/oauth.ts"}},
		RecentActions: []observertriage.Action{
			{Type: "file_open", Path: "src/middleware/auth.ts", Ago: "3m12s ago"},
			{Type: "tab_switch", Path: "b.ts", Ago: "1m00s ago"},
			{Type: "idle_end", Ago: "0s ago"},
		},
		TimeSinceLastSave: "5m00s", TimeSinceLastNudge: "never", DreyfusStage: "advanced_beginner", UserIdle: true,
	}
	if diff := cmp.Diff(want, BuildContext(snap, t0)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Scenarios 10.15 and 10.16: no phase, no assessments.
	got := BuildContext(Snapshot{LastActivity: t0}, t0)
	if got.CurrentPhase != nil || got.DreyfusStage != "novice" || got.UserIdle || got.RecentActions == nil {
		t.Errorf("empty snapshot: got %+v", got)
	}
}

// The flow window keeps only the newest FlowThreshold+1 times, and
// Suppress decides exactly as with every time of the window kept.
func TestFlowWindowBounded(t *testing.T) {
	var s State
	var all []time.Time // the unbounded window, as before the bound
	at := t0
	for i := range 2000 {
		// Bursts of fast typing, then pauses of up to 90 s.
		step := 50 * time.Millisecond
		if i%37 == 0 {
			step = time.Duration(i%90) * time.Second
		}
		at = at.Add(step)
		s.Observe(actionlog.EventBufferUpdate, at)
		all = append(prune(all, at), at)
		if len(s.Recent) > FlowThreshold+1 {
			t.Fatalf("event %d: %d times kept, want at most %d", i, len(s.Recent), FlowThreshold+1)
		}
		for _, later := range []time.Duration{0, 5 * time.Second, 59 * time.Second, 61 * time.Second} {
			ref := State{Recent: all}
			if got, want := Suppress(&s, at.Add(later)), Suppress(&ref, at.Add(later)); got != want {
				t.Fatalf("event %d, +%v: Suppress = %q, with the whole window %q", i, later, got, want)
			}
		}
	}
}
