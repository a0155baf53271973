package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
)

func intp(i int) *int       { return &i }
func strp(s string) *string { return &s }

// Scenario 2.4: plan → phases, queried alone or by plan; deleting the plan
// cascades to phases, hints and progress events.
func TestPlanPhaseHierarchyAndCascade(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t)
	sess := mustSession(t, s)
	plan, err := s.CreatePlan(ctx, sess.ID, "1. do it\n2. test it")
	if err != nil {
		t.Fatal(err)
	}
	var phases []coach.Phase
	for i, title := range []string{"Model", "Handler", "Tests"} {
		ph, err := s.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 3 - i, Title: title, Description: "d",
			HintLevel: coach.HintFile, ExpectedFiles: []string{"src/" + title + ".ts"}})
		if err != nil {
			t.Fatal(err)
		}
		phases = append(phases, ph)
	}
	got, err := s.Phases(ctx, plan.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Title != "Tests" || got[2].Title != "Model" {
		t.Fatalf("Phases not ordered by number: %+v", got)
	}
	one, err := s.Phase(ctx, phases[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(phases[0], one); diff != "" {
		t.Errorf("Phase (-want +got):\n%s", diff)
	}
	if one.Status != coach.PhasePending || one.PlanID != plan.ID {
		t.Errorf("phase defaults: %+v", one)
	}
	parent, err := s.Plan(ctx, one.PlanID)
	if err != nil || parent.RawPlanText != plan.RawPlanText {
		t.Errorf("parent plan = %+v, %v", parent, err)
	}
	c.Advance(time.Second)
	newer, _ := s.CreatePlan(ctx, sess.ID, "second run")
	if latest, err := s.LatestPlan(ctx, sess.ID); err != nil || latest.ID != newer.ID {
		t.Errorf("LatestPlan = %v, %v; want %s", latest.ID, err, newer.ID)
	}
	if _, err := s.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: one.ID, Type: coach.HintTypeFile, Path: "a.ts", Style: "suggested"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddProgressEvent(ctx, one.ID, "hint_used", nil); err != nil {
		t.Fatal(err)
	}

	if err := s.DeletePlan(ctx, plan.ID); err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string]int{"phases": 0, "phase_hints": 0, "progress_events": 0, "plans": 1} {
		var n int
		s.DB().QueryRow(`SELECT count(*) FROM ` + table).Scan(&n)
		if n != want {
			t.Errorf("%s has %d rows after deleting the plan, want %d", table, n, want)
		}
	}
	if _, err := s.Phase(ctx, one.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Phase after cascade = %v, want ErrNotFound", err)
	}
}

// EC-08: a child whose parent does not exist is rejected with ErrNotFound.
func TestForeignKeysReject(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	checks := map[string]error{}
	_, checks["plan"] = s.CreatePlan(ctx, "missing", "x")
	_, checks["phase"] = s.CreatePhase(ctx, coach.Phase{PlanID: "missing", Number: 1, Title: "t"})
	_, checks["hint"] = s.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: "missing", Type: coach.HintTypeFile, Path: "a"})
	_, checks["progress"] = s.AddProgressEvent(ctx, "missing", "hint_used", nil)
	_, checks["gap"] = s.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: "missing", Topic: "t", Severity: coach.SeverityLow})
	_, checks["kata"] = s.CreateKata(ctx, coach.KataSpec{KnowledgeGapID: "missing", Title: "k"})
	_, checks["action"] = s.InsertAction(ctx, "missing", coach.ActionFileOpen, nil)
	for what, err := range checks {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s with missing parent: %v, want ErrNotFound", what, err)
		}
	}
}

// EC-31, EC-32: phase status transitions and their timestamps.
func TestSetPhaseStatus(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t)
	ph := mustPhase(t, s)
	c.Advance(time.Minute)
	active, changed, err := s.SetPhaseStatus(ctx, ph.ID, coach.PhaseActive)
	if err != nil || !changed || active.StartedAt == nil || !active.StartedAt.Equal(t0.Add(time.Minute)) || active.CompletedAt != nil {
		t.Fatalf("to active = %+v, %v, %v", active, changed, err)
	}
	again, changed, err := s.SetPhaseStatus(ctx, ph.ID, coach.PhaseActive)
	if err != nil || changed || !again.StartedAt.Equal(*active.StartedAt) {
		t.Errorf("same status = %+v, changed %v, %v; want unchanged", again, changed, err)
	}
	c.Advance(time.Minute)
	done, changed, err := s.SetPhaseStatus(ctx, ph.ID, coach.PhaseComplete)
	if err != nil || !changed || !done.StartedAt.Equal(t0.Add(time.Minute)) || !done.CompletedAt.Equal(t0.Add(2*time.Minute)) {
		t.Errorf("to complete = %+v, %v, %v", done, changed, err)
	}
	read, _ := s.Phase(ctx, ph.ID)
	if diff := cmp.Diff(done, read); diff != "" {
		t.Errorf("persisted (-want +got):\n%s", diff)
	}
	if _, _, err := s.SetPhaseStatus(ctx, "missing", coach.PhaseActive); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing phase: %v, want ErrNotFound", err)
	}
	if _, _, err := s.SetPhaseStatus(ctx, ph.ID, "done"); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad status: %v, want ErrInvalid", err)
	}
}

// Scenario 2.5.
func TestPhaseHints(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	ph := mustPhase(t, s)
	file, err := s.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: ph.ID, Type: coach.HintTypeFile, Path: "src/a.ts", Style: "suggested"})
	if err != nil {
		t.Fatal(err)
	}
	line, err := s.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: ph.ID, Type: coach.HintTypeLine, Path: "src/a.ts",
		StartLine: intp(10), EndLine: intp(14), Style: "hint", HoverText: strp("Look at the guard clause")})
	if err != nil {
		t.Fatal(err)
	}
	single, err := s.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: ph.ID, Type: coach.HintTypeLine, Path: "b.ts", StartLine: intp(3), Style: "hint"})
	if err != nil || single.EndLine == nil || *single.EndLine != 3 {
		t.Errorf("line hint without end = %+v, %v; want end = start", single, err)
	}
	all, _ := s.PhaseHints(ctx, ph.ID, "")
	if diff := cmp.Diff([]coach.PhaseHint{file, line, single}, all); diff != "" {
		t.Errorf("all hints (-want +got):\n%s", diff)
	}
	lines, _ := s.PhaseHints(ctx, ph.ID, coach.HintTypeLine)
	if len(lines) != 2 || lines[0].ID != line.ID {
		t.Errorf("line hints = %+v", lines)
	}
	if _, err := s.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: ph.ID, Type: coach.HintTypeLine, Path: "a"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("line hint without line: %v, want ErrInvalid", err)
	}
	if _, err := s.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: ph.ID, Type: "region", Path: "a"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad hint type: %v, want ErrInvalid", err)
	}
}

// Scenario 2.10.
func TestProgressEvents(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t)
	ph := mustPhase(t, s)
	var want []coach.ProgressEvent
	for i, typ := range []string{"hint_used", "hint_escalated", "review_requested", "review_passed"} {
		var data json.RawMessage
		if i%2 == 0 {
			data = json.RawMessage(`{"level":"line"}`)
		}
		ev, err := s.AddProgressEvent(ctx, ph.ID, typ, data)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, ev)
		c.Advance(time.Second)
	}
	got, err := s.ProgressEvents(ctx, ph.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if _, err := s.AddProgressEvent(ctx, ph.ID, "x", json.RawMessage(`{bad`)); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid JSON: %v, want ErrInvalid", err)
	}
}

// The pipeline's transactional helper: everything or nothing.
func TestUpdateIsAtomic(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	sess := mustSession(t, s)
	boom := errors.New("coach agent output invalid")
	err := s.Update(ctx, func(tx *Tx) error {
		plan, err := tx.CreatePlan(ctx, sess.ID, "p")
		if err != nil {
			return err
		}
		ph, err := tx.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "t"})
		if err != nil {
			return err
		}
		if _, err := tx.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: ph.ID, Type: coach.HintTypeFile, Path: "a"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want the callback's error", err)
	}
	if _, err := s.LatestPlan(ctx, sess.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("plan survived a rolled-back transaction: %v", err)
	}
	var planID string
	err = s.Update(ctx, func(tx *Tx) error {
		plan, err := tx.CreatePlan(ctx, sess.ID, "p")
		planID = plan.ID
		if err != nil {
			return err
		}
		ph, err := tx.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "t"})
		if err != nil {
			return err
		}
		_, err = tx.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: ph.ID, Type: coach.HintTypeFile, Path: "a"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if phases, _ := s.Phases(ctx, planID); len(phases) != 1 {
		t.Errorf("committed phases = %d, want 1", len(phases))
	}
}
