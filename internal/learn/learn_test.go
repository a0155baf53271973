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
