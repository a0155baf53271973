package actionlog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSignificant(t *testing.T) {
	tests := []struct {
		last, now int
		want      bool
	}{
		{1000, 1500, false}, // +500: neither > 500 nor > 50 %
		{1000, 1501, true},  // > 500 absolute
		{1000, 499, true},   // −501
		{100, 150, false},   // exactly 50 %
		{100, 151, true},    // > 50 %
		{100, 49, true},     // −51 %
		{100, 100, false},
		{0, 500, false}, // empty file: only the absolute rule
		{0, 501, true},
		{0, 1, false},
		{1, 2, true}, // tiny files: 100 %
		{10000, 10400, false},
	}
	for _, tt := range tests {
		if got := Significant(tt.last, tt.now); got != tt.want {
			t.Errorf("Significant(%d, %d) = %v, want %v", tt.last, tt.now, got, tt.want)
		}
	}
}

// The first update of a file in a session: the baseline is the count
// before the update when known (previous buffer or file on disk), else the
// update's own count.
func TestObserveFirstUpdateBaseline(t *testing.T) {
	tests := []struct {
		name      string
		prev, now int
		wantSig   *significantChange
		wantState fileState
	}{
		{"paste into opened file", 100, 2100, &significantChange{PreviousCharCount: 100, NewCharCount: 2100, Delta: 2000},
			fileState{lastLogged: 2100, base: 100, chars: 2100, edits: 1}},
		{"keystroke in opened file", 100, 101, nil, fileState{lastLogged: 100, base: 100, chars: 101, edits: 1}},
		{"new file, big first update", -1, 5000, nil, fileState{lastLogged: 5000, base: 5000, chars: 5000, edits: 1}},
		{"delete everything", 800, 0, &significantChange{PreviousCharCount: 800, NewCharCount: 0, Delta: -800},
			fileState{lastLogged: 0, base: 800, chars: 0, edits: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, sig := observe(nil, tt.prev, tt.now)
			if diff := cmp.Diff(tt.wantSig, sig); diff != "" {
				t.Errorf("significant (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantState, st, cmp.AllowUnexported(fileState{})); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
		})
	}
}

// Later updates compare against the last logged count, which a logged
// significant change moves.
func TestObserveSequence(t *testing.T) {
	st, _ := observe(nil, 1000, 1000)
	steps := []struct {
		now int
		sig bool
	}{{1200, false}, {1400, false}, {1501, true}, {1600, false}, {2002, true}, {2003, false}}
	for i, s := range steps {
		var sig *significantChange
		st, sig = observe(&st, -1, s.now)
		if (sig != nil) != s.sig {
			t.Errorf("step %d (%d chars): significant = %v, want %v", i, s.now, sig != nil, s.sig)
		}
	}
	if st.edits != 7 || st.lastLogged != 2002 || st.base != 1000 {
		t.Errorf("state = %+v, want 7 edits, lastLogged 2002, base 1000", st)
	}
}

// Scenarios 4.2 and 4.7: only edited files are summarised, once.
func TestDrain(t *testing.T) {
	files := map[string]*fileState{
		"b.ts": {lastLogged: 10, base: 10, chars: 25, edits: 3},
		"a.ts": {lastLogged: 900, base: 100, chars: 950, edits: 1},
		"c.ts": {lastLogged: 5, base: 5, chars: 5, edits: 0},
	}
	want := []summary{{Path: "a.ts", EditCount: 1, CharDelta: 850, CharCount: 950}, {Path: "b.ts", EditCount: 3, CharDelta: 15, CharCount: 25}}
	if diff := cmp.Diff(want, drain(files)); diff != "" {
		t.Errorf("first drain (-want +got):\n%s", diff)
	}
	if got := drain(files); len(got) != 0 {
		t.Errorf("second drain = %v, want nothing (no edits since)", got)
	}
	if files["a.ts"].lastLogged != 950 || files["a.ts"].base != 950 {
		t.Errorf("a.ts state after drain = %+v, want lastLogged and base 950", *files["a.ts"])
	}
}
