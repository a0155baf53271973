package store

import (
	"context"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
)

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
