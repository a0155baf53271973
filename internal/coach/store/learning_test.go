package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
)

// Scenario 2.6, EC-09: one row per skill area; an update overwrites it,
// keeps its id and moves assessed_at.
func TestUpsertDreyfus(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t)
	first, err := s.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "React state management", Stage: coach.Novice, Confidence: 0.4, Evidence: "asked about useState"})
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Hour)
	second, err := s.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "React state management", Stage: coach.Competent, Confidence: 0.8, Evidence: "refactored reducer"})
	if err != nil {
		t.Fatal(err)
	}
	if second.ID != first.ID {
		t.Errorf("id changed on update: %s → %s", first.ID, second.ID)
	}
	s.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "Async error handling", Stage: coach.AdvancedBeginner, Confidence: 0.5})
	all, err := s.DreyfusAssessments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []coach.DreyfusAssessment{
		{ID: all[0].ID, SkillArea: "Async error handling", Stage: coach.AdvancedBeginner, Confidence: 0.5, AssessedAt: t0.Add(time.Hour)},
		{ID: first.ID, SkillArea: "React state management", Stage: coach.Competent, Confidence: 0.8, Evidence: "refactored reducer", AssessedAt: t0.Add(time.Hour)},
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("assessments (-want +got):\n%s", diff)
	}
	for _, bad := range []coach.DreyfusAssessment{
		{SkillArea: "", Stage: coach.Novice},
		{SkillArea: "x", Stage: "guru"},
		{SkillArea: "x", Stage: coach.Expert, Confidence: 1.5},
	} {
		if _, err := s.UpsertDreyfus(ctx, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("UpsertDreyfus(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
}

// Scenario 2.7.
func TestKnowledgeGaps(t *testing.T) {
	ctx := context.Background()
	s, c := newStore(t)
	a, b := mustSession(t, s), mustSession(t, s)
	g1, err := s.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: a.ID, Topic: "closures", Severity: coach.SeverityHigh,
		Evidence: "stale value in callback", RelatedConcepts: []string{"scope", "useCallback"}})
	if err != nil {
		t.Fatal(err)
	}
	if g1.Frequency != 1 || !g1.LastEncounteredAt.Equal(t0) || g1.Addressed {
		t.Errorf("defaults = %+v", g1)
	}
	c.Advance(time.Minute)
	g2, _ := s.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: a.ID, Topic: "promises", Severity: coach.SeverityLow})
	c.Advance(time.Minute)
	g3, _ := s.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: b.ID, Topic: "sql joins", Severity: coach.SeverityHigh, Frequency: 3})
	if err := s.SetGapAddressed(ctx, g2.ID, true); err != nil {
		t.Fatal(err)
	}
	no := false
	ids := func(gs []coach.KnowledgeGap) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	tests := []struct {
		name string
		f    GapFilter
		want []string
	}{
		{"by session", GapFilter{SessionID: a.ID}, []string{g2.ID, g1.ID}},
		{"global", GapFilter{}, []string{g3.ID, g2.ID, g1.ID}},
		{"high severity", GapFilter{Severity: coach.SeverityHigh}, []string{g3.ID, g1.ID}},
		{"unaddressed", GapFilter{Addressed: &no}, []string{g3.ID, g1.ID}},
		{"limit", GapFilter{Limit: 1}, []string{g3.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.KnowledgeGaps(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	got, _ := s.KnowledgeGaps(ctx, GapFilter{SessionID: a.ID})
	if diff := cmp.Diff(g1, got[1]); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if _, err := s.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: a.ID, Topic: "x", Severity: "critical"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad severity: %v, want ErrInvalid", err)
	}
	if err := s.SetGapAddressed(ctx, "missing", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetGapAddressed(missing) = %v, want ErrNotFound", err)
	}
}

func newKata(tb testing.TB, s *Store) coach.KataSpec {
	tb.Helper()
	ctx := context.Background()
	sess := mustSession(tb, s)
	gap, err := s.CreateKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: sess.ID, Topic: "closures", Severity: coach.SeverityMedium})
	if err != nil {
		tb.Fatal(err)
	}
	k, err := s.CreateKata(ctx, coach.KataSpec{KnowledgeGapID: gap.ID, Title: "Counter factory", Description: "Write makeCounter",
		ScaffoldingCode: "function makeCounter() {}", InstructorNotes: "look for shared state",
		Constraints: []coach.KataConstraint{{Title: "No globals", Description: "d", MinLevel: 1}, {Title: "One line", Description: "d", MinLevel: 7}}})
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// Scenarios 2.8 and 2.9.
func TestKataAttempts(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	k := newKata(t, s)
	got, err := s.Kata(ctx, k.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(k, got); diff != "" {
		t.Errorf("kata (-want +got):\n%s", diff)
	}
	if got.UserAttempts == nil || len(got.UserAttempts) != 0 {
		t.Errorf("user_attempts = %#v, want empty array", got.UserAttempts)
	}
	first := coach.KataAttempt{Code: "let n = 0", Review: strp("uses a global"), Level: intp(2), Passed: new(bool)}
	second := coach.KataAttempt{Code: "function makeCounter(){let n=0;return()=>++n}", Constraints: k.Constraints[:1]}
	for i, a := range []coach.KataAttempt{first, second} {
		n, err := s.AppendKataAttempt(ctx, k.ID, a)
		if err != nil || n != i+1 {
			t.Fatalf("append %d = %d, %v", i, n, err)
		}
	}
	got, _ = s.Kata(ctx, k.ID)
	if diff := cmp.Diff([]coach.KataAttempt{first, second}, got.UserAttempts); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	if _, err := s.AppendKataAttempt(ctx, "missing", first); !errors.Is(err, ErrNotFound) {
		t.Errorf("append to missing kata = %v, want ErrNotFound", err)
	}
	list, _ := s.Katas(ctx, k.KnowledgeGapID)
	if len(list) != 1 || list[0].ID != k.ID {
		t.Errorf("Katas(gap) = %+v", list)
	}
}

// EC-79, EC-07: concurrent appends (two connections, WAL) lose nothing.
func TestKataConcurrentAppends(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	k := newKata(t, s)
	const workers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, err := s.AppendKataAttempt(ctx, k.ID, coach.KataAttempt{Code: fmt.Sprintf("w%d-%d", w, i)}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("append: %v", err)
	}
	got, _ := s.Kata(ctx, k.ID)
	seen := map[string]bool{}
	for _, a := range got.UserAttempts {
		seen[a.Code] = true
	}
	if len(got.UserAttempts) != workers*each || len(seen) != workers*each {
		t.Errorf("%d attempts (%d distinct), want %d", len(got.UserAttempts), len(seen), workers*each)
	}
}

// SC-007: a whole session round-trips.
func TestFullLifecycleRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	sess := mustSession(t, s)
	var phase coach.Phase
	err := s.Update(ctx, func(tx *Tx) error {
		plan, err := tx.CreatePlan(ctx, sess.ID, "plan")
		if err != nil {
			return err
		}
		if phase, err = tx.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "t", HintLevel: coach.HintLine}); err != nil {
			return err
		}
		_, err = tx.CreatePhaseHint(ctx, coach.PhaseHint{PhaseID: phase.ID, Type: coach.HintTypeFile, Path: "a.ts"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddProgressEvent(ctx, phase.ID, "hint_used", nil); err != nil {
		t.Fatal(err)
	}
	k := newKata(t, s)
	if _, err := s.AppendKataAttempt(ctx, k.ID, coach.KataAttempt{Code: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpsertDreyfus(ctx, coach.DreyfusAssessment{SkillArea: "go", Stage: coach.Proficient, Confidence: 0.9}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.InsertAction(ctx, sess.ID, coach.ActionPhaseStarted, []byte(`{"phaseId":"`+phase.ID+`"}`)); err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string]int{"sessions": 2, "plans": 1, "phases": 1, "phase_hints": 1, "progress_events": 1,
		"knowledge_gaps": 1, "kata_specs": 1, "dreyfus_assessments": 1, "action_log": 1} {
		var n int
		s.DB().QueryRow(`SELECT count(*) FROM ` + table).Scan(&n)
		if n != want {
			t.Errorf("%s: %d rows, want %d", table, n, want)
		}
	}
	// Deleting the session removes everything hanging off it.
	if err := s.DeleteSession(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"plans", "phases", "phase_hints", "progress_events", "action_log"} {
		var n int
		s.DB().QueryRow(`SELECT count(*) FROM ` + table).Scan(&n)
		if n != 0 {
			t.Errorf("%s: %d rows after deleting the session, want 0", table, n)
		}
	}
}

// A recurring gap counts up its row instead of inserting a duplicate, and
// is no longer addressed; a new topic is a new row.
func TestRecordKnowledgeGapRecurs(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	s1, _ := s.CreateSession(ctx, NewSession{ProjectDir: "/p"})
	s2, _ := s.CreateSession(ctx, NewSession{ProjectDir: "/p"})
	record := func(sid, topic string) (coach.KnowledgeGap, bool) {
		t.Helper()
		var g coach.KnowledgeGap
		var isNew bool
		err := s.Update(ctx, func(tx *Tx) (err error) {
			g, isNew, err = tx.RecordKnowledgeGap(ctx, coach.KnowledgeGap{SessionID: sid, Topic: topic, Severity: coach.SeverityHigh, Evidence: "e " + sid})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return g, isNew
	}
	first, isNew := record(s1.ID, "Goroutine leaks")
	if !isNew || first.Frequency != 1 {
		t.Fatalf("first = %+v, new %v", first, isNew)
	}
	if err := s.SetGapAddressed(ctx, first.ID, true); err != nil {
		t.Fatal(err)
	}
	again, isNew := record(s2.ID, "  goroutine LEAKS ")
	if isNew || again.ID != first.ID || again.Frequency != 2 || again.SessionID != s1.ID {
		t.Fatalf("recurrence = %+v, new %v", again, isNew)
	}
	if _, isNew := record(s2.ID, "Channels"); !isNew {
		t.Error("new topic not inserted")
	}
	all, err := s.KnowledgeGaps(ctx, GapFilter{})
	if err != nil || len(all) != 2 {
		t.Fatalf("gaps = %d, %v", len(all), err)
	}
	for _, g := range all {
		if g.ID == first.ID && (g.Frequency != 2 || g.Addressed || g.Evidence != "e "+s2.ID) {
			t.Errorf("stored recurring gap = %+v", g)
		}
	}
}
