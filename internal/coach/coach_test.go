package coach

import "testing"

// FR-048 + NOTES.md: the 27 action types of the spec plus coaching_pipeline
// and session_end, each distinct and valid.
func TestActionTypes(t *testing.T) {
	if got := len(ActionTypes); got != 29 {
		t.Fatalf("len(ActionTypes) = %d, want 29", got)
	}
	seen := map[ActionType]bool{}
	for _, a := range ActionTypes {
		if seen[a] {
			t.Errorf("duplicate action type %q", a)
		}
		seen[a] = true
		if !a.Valid() {
			t.Errorf("%q not Valid", a)
		}
	}
	for _, bad := range []ActionType{"", "buffer_update", "File_Open"} {
		if bad.Valid() {
			t.Errorf("%q is Valid, want invalid", bad)
		}
	}
	observed := 0
	for _, a := range ActionTypes {
		if a.ObserverRelevant() {
			observed++
		}
	}
	if observed != 14 { // the "Observer? Yes" rows of story 4
		t.Errorf("%d observer-relevant types, want 14", observed)
	}
}

func TestEnumsValid(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"session active", SessionActive.Valid()},
		{"session abandoned", SessionAbandoned.Valid()},
		{"session bogus", !SessionStatus("paused").Valid()},
		{"phase complete", PhaseComplete.Valid()},
		{"phase bogus", !PhaseStatus("completed").Valid()},
		{"stage advanced_beginner", AdvancedBeginner.Valid()},
		{"stage default", DefaultDreyfusStage.Valid()},
		{"stage bogus", !DreyfusStage("master").Valid()},
		{"severity high", SeverityHigh.Valid()},
		{"severity bogus", !Severity("critical").Valid()},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: wrong validity", tt.name)
		}
	}
}
