package learn

import "testing"

func TestKnowledgeTypeValid(t *testing.T) {
	for _, k := range KnowledgeTypes {
		if !k.Valid() {
			t.Errorf("%s: not valid", k)
		}
	}
	for _, k := range []KnowledgeType{"", "opinion", "Rule"} {
		if k.Valid() {
			t.Errorf("%q: valid, want invalid", k)
		}
	}
}

// TestKnowledgeTypeTier: what to do first, facts last, every other type
// between.
func TestKnowledgeTypeTier(t *testing.T) {
	want := map[KnowledgeType]int{Rule: 0, Procedure: 0, Preference: 1, Correction: 1, Decision: 1, Fact: 2}
	for _, k := range KnowledgeTypes {
		if got := k.Tier(); got != want[k] {
			t.Errorf("%s.Tier() = %d, want %d", k, got, want[k])
		}
	}
}

func TestStatsAdd(t *testing.T) {
	s := Stats{TurnsProcessed: 1, AlreadyExtracted: true}
	s.Add(Stats{TurnsProcessed: 2, SignalTurns: 1, NoiseTurns: 1, EntriesExtracted: 3, DuplicatesSkipped: 4, MalformedLines: 5, EntriesForgotten: 6, EntriesSuperseded: 7})
	want := Stats{TurnsProcessed: 3, SignalTurns: 1, NoiseTurns: 1, EntriesExtracted: 3, DuplicatesSkipped: 4, MalformedLines: 5, EntriesForgotten: 6, EntriesSuperseded: 7, AlreadyExtracted: true}
	if s != want {
		t.Errorf("got %+v, want %+v", s, want)
	}
}

func TestEntryActive(t *testing.T) {
	if !(Entry{}).Active() || (Entry{SupersededBy: "x"}).Active() || (Entry{Forgotten: true}).Active() {
		t.Error("Active wrong")
	}
}
