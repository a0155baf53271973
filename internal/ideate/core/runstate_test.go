package core

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWaitingFor(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		s       Session
		running bool
		want    Waiting
	}{
		{"new", Session{Status: StatusCreated}, false, WaitStart},
		{"running", Session{Status: StatusActive, State: State{Awaiting: AwaitScores}}, true, WaitAgent},
		{"cancelled", Session{Status: StatusCancelled, State: State{Run: RunFailed}}, false, WaitNothing},
		{"scores", Session{Status: StatusActive, State: State{Awaiting: AwaitScores}}, false, WaitScores},
		{"question", Session{Status: StatusActive, State: State{Awaiting: AwaitAskUser}}, false, WaitAskUser},
		{"spec written", Session{Status: StatusResolved, State: State{Resolved: true, SpecGenerated: true}}, false, WaitFinalSpec},
		{"failed", Session{Status: StatusActive, State: State{Run: RunFailed}}, false, WaitResume},
		{"failed first run", Session{Status: StatusCreated, State: State{Run: RunFailed}}, false, WaitResume},
		{"interrupted", Session{Status: StatusActive, State: State{Run: RunRunning}}, false, WaitResume},
		{"resolved without spec", Session{Status: StatusResolved, State: State{Resolved: true}}, false, WaitSpec},
		{"idle", Session{Status: StatusActive}, false, WaitNothing},
	} {
		if got := WaitingFor(&tt.s, tt.running); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParents(t *testing.T) {
	t.Parallel()
	ps := []Premise{
		{ID: "a", Title: "A", RoundNumber: 1, BufferIndex: 0},
		{ID: "b", Title: "B", RoundNumber: 1, BufferIndex: 1, SourceTitle: "a"},                                   // same round, earlier
		{ID: "a2", Title: "A", RoundNumber: 2, BufferIndex: 0},                                                    // a later namesake
		{ID: "x", Title: "X", RoundNumber: 3, PrimaryTitle: " a ", SecondaryTitles: []string{"B", "Nobody", "A"}}, // latest A; A twice once
		{ID: "y", Title: "Y", RoundNumber: 1, BufferIndex: 2, SourceTitle: "Y"},                                   // itself: no parent
	}
	want := map[string][]Parent{
		"b": {{ID: "a", Title: "A", RoundNumber: 1, Relation: RelationEvolved}},
		"x": {{ID: "a2", Title: "A", RoundNumber: 2, Relation: RelationCombined}, {ID: "b", Title: "B", RoundNumber: 1, Relation: RelationCombined}},
	}
	if diff := cmp.Diff(want, Parents(ps)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
