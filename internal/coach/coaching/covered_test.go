package coaching

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/prompts/knowledgegaps"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func TestCoveredGaps(t *testing.T) {
	gap := func(id, session, topic string, concepts ...string) coach.KnowledgeGap {
		return coach.KnowledgeGap{ID: id, SessionID: session, Topic: topic, RelatedConcepts: concepts}
	}
	phase := func(status coach.PhaseStatus, title, desc string) coach.Phase {
		return coach.Phase{Title: title, Description: desc, Status: status}
	}
	addressed := gap("addressed", "old", "SQL indexes")
	addressed.Addressed = true
	earlier := []coach.KnowledgeGap{
		gap("topic", "old", "SQL indexes", "query plans"),
		gap("concept", "old", "Database performance", "B-tree"),
		gap("untouched", "old", "CSS grid"),
		gap("recurs", "old", "Error handling"),
		gap("own", "now", "Go channels"),
		gap("partial", "old", "React state management"),
		addressed,
	}
	reported := []coach.KnowledgeGap{{Topic: "  error HANDLING "}}
	tests := []struct {
		name   string
		phases []coach.Phase
		want   []string
	}{
		{"completed phases cover the topic or a concept", []coach.Phase{
			phase(coach.PhaseComplete, "Add an index", "Create SQL indexes for the orders query; check the b-tree depth"),
			phase(coach.PhaseComplete, "Handle errors", "error handling in the Go channels worker"),
			phase(coach.PhaseComplete, "State", "Move React state up"),
		}, []string{"topic", "concept"}},
		{"a phase not completed covers nothing", []coach.Phase{
			phase(coach.PhaseActive, "Add SQL indexes", ""), phase(coach.PhasePending, "B-tree", ""),
		}, nil},
		{"no plan", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := coveredGaps("now", earlier, reported, tt.phases)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("covered (-want +got):\n%s", diff)
			}
		})
	}
}

// A later session whose completed phase worked on an earlier gap's topic,
// and whose wrap-up did not find the gap again, marks it addressed; a gap
// it never touched stays open, and so does one whose extraction failed.
func TestWrapUpAddressesCoveredGaps(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.start(t, "slow orders page")
	replies := wrapUpReplies()
	replies[0] = llmtest.JSON(knowledgegaps.Response{KnowledgeGaps: []knowledgegaps.Gap{
		{Topic: "SQL indexes", Evidence: "asked twice", Severity: "high", RelatedConcepts: []string{"query plans"}},
		{Topic: "CSS grid", Evidence: "stuck on layout", Severity: "low", RelatedConcepts: []string{}},
	}, KataSpecs: []knowledgegaps.KataSpec{}})
	r.fake.Enqueue(replies...)
	if w, err := r.svc.EndSession(ctx, "t"); err != nil || w.KnowledgeGaps != 2 || w.GapsAddressed != 0 {
		t.Fatalf("first wrap-up = %+v, %v", w, err)
	}

	second := r.start(t, "index the invoices table")
	plan, err := r.st.CreatePlan(ctx, second.ID, "1. add the index")
	if err != nil {
		t.Fatal(err)
	}
	ph, err := r.st.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "Add SQL indexes to invoices",
		Description: "Read the query plan and add the index", HintLevel: coach.HintNone})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.st.SetPhaseStatus(ctx, ph.ID, coach.PhaseComplete); err != nil {
		t.Fatal(err)
	}
	r.fake.Enqueue(wrapUpReplies()...) // no gap this time
	w, err := r.svc.EndSession(ctx, "t")
	if err != nil || w.GapsAddressed != 1 {
		t.Fatalf("second wrap-up = %+v, %v; want 1 gap addressed", w, err)
	}
	open := map[string]bool{}
	gaps, _ := r.st.KnowledgeGaps(ctx, store.GapFilter{})
	for _, g := range gaps {
		open[g.Topic] = !g.Addressed
	}
	if diff := cmp.Diff(map[string]bool{"SQL indexes": false, "CSS grid": true}, open); diff != "" {
		t.Errorf("gap open after the second session (-want +got):\n%s", diff)
	}
	ends, _ := r.st.RecentActions(ctx, store.ActionQuery{SessionID: second.ID, Types: []coach.ActionType{coach.ActionSessionEnd}})
	var data map[string]any
	if len(ends) != 1 || json.Unmarshal(ends[0].Data, &data) != nil || data["gapsAddressed"] != 1.0 {
		t.Errorf("session_end = %+v", ends)
	}

	// A third session covering CSS grid whose extraction fails leaves it open.
	third, _ := r.sess.Start(ctx, session.StartInput{})
	plan3, _ := r.st.CreatePlan(ctx, third.ID, "1. grid")
	ph3, _ := r.st.CreatePhase(ctx, coach.Phase{PlanID: plan3.ID, Number: 1, Title: "Lay out with CSS grid", HintLevel: coach.HintNone})
	if _, _, err := r.st.SetPhaseStatus(ctx, ph3.ID, coach.PhaseComplete); err != nil {
		t.Fatal(err)
	}
	failed := wrapUpReplies()
	failed[0] = llmtest.Error(400, "invalid_request_error", "no")
	r.fake.Enqueue(failed...)
	if w, err := r.svc.EndSession(ctx, "t"); err != nil || w.GapsAddressed != 0 || len(w.Failed) != 1 {
		t.Errorf("third wrap-up = %+v, %v", w, err)
	}
	if g, _ := r.st.KnowledgeGaps(ctx, store.GapFilter{Addressed: new(bool)}); len(g) != 1 || g[0].Topic != "CSS grid" {
		t.Errorf("open gaps after a failed extraction = %+v, want CSS grid", g)
	}
}

// A gap found again by a later wrap-up counts up its row (frequency 2, the
// first session kept) instead of adding a duplicate, and is not counted as
// a new gap.
func TestWrapUpRecurringGapCountsUp(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	var first string
	for i, wantNew := range []int{1, 0} {
		sess := r.start(t, "")
		if i == 0 {
			first = sess.ID
		}
		replies := wrapUpReplies()
		replies[0] = llmtest.JSON(knowledgegaps.Response{KnowledgeGaps: []knowledgegaps.Gap{
			{Topic: []string{"CSS grid", " css GRID"}[i], Evidence: "stuck", Severity: "medium", RelatedConcepts: []string{}}},
			KataSpecs: []knowledgegaps.KataSpec{}})
		r.fake.Enqueue(replies...)
		if w, err := r.svc.EndSession(ctx, "t"); err != nil || w.KnowledgeGaps != wantNew {
			t.Fatalf("wrap-up %d = %+v, %v; want %d new gaps", i+1, w, err, wantNew)
		}
	}
	gaps, _ := r.st.KnowledgeGaps(ctx, store.GapFilter{})
	if len(gaps) != 1 || gaps[0].Frequency != 2 || gaps[0].SessionID != first {
		t.Errorf("gaps = %+v, want one row with frequency 2 from the first session", gaps)
	}
}
