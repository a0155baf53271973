package actionlog

import (
	"slices"
	"strings"
)

// Thresholds of the immediate buffer_significant_change log (D23, FR-044).
const (
	// SignificantAbsolute: a change of more than this many characters is significant.
	SignificantAbsolute = 500
	// SignificantRatio: a change of more than this fraction of the last
	// logged count is significant (when that count is not zero).
	SignificantRatio = 0.5
)

// Significant reports whether a buffer whose last logged character count
// was last and now has now characters changed significantly: by more than
// 500 characters, or by more than 50 % of last. When last is 0 only the
// absolute rule applies, so typing the first characters of an empty file
// is not "an infinite percentage" change. Because the caller moves last to
// now whenever it logs, steady typing logs geometrically rarely (at most
// O(log n) entries while a file grows to n characters).
func Significant(last, now int) bool {
	d := now - last
	if d < 0 {
		d = -d
	}
	if d > SignificantAbsolute {
		return true
	}
	return last > 0 && float64(d) > SignificantRatio*float64(last)
}

// fileState is the per-file buffer log state (D23's BufferLogState).
type fileState struct {
	lastLogged int // lastLoggedCharCount: moved by summaries and significant changes
	base       int // character count at the last summary: charDelta is measured from it
	chars      int // current character count
	edits      int // editCountSinceLastLog (since the last summary)
}

// baseline is the lastLoggedCharCount a file starts with on its first
// buffer update in a session: the count before that update (the previous
// buffer, or the file on disk) when known, else the update's own count.
// So pasting 2,000 characters into a freshly opened 100-character file is
// significant on the very first update, while the first update of a brand
// new file (nothing known before it) is not.
func baseline(prev, now int) int {
	if prev >= 0 {
		return prev
	}
	return now
}

// summary is one pending buffer_summary entry.
type summary struct {
	Path      string `json:"path"`
	EditCount int    `json:"editCount"`
	CharDelta int    `json:"charDelta"`
	CharCount int    `json:"charCount"`
}

// significantChange is the data of buffer_significant_change.
type significantChange struct {
	Path              string `json:"path"`
	PreviousCharCount int    `json:"previousCharCount"`
	NewCharCount      int    `json:"newCharCount"`
	Delta             int    `json:"delta"`
}

// observe applies one buffer update to st (nil for the first update of the
// file) and returns the new state and, when the change is significant, the
// entry to log; logging moves lastLogged to now.
func observe(st *fileState, prev, now int) (fileState, *significantChange) {
	var s fileState
	if st == nil {
		s.lastLogged = baseline(prev, now)
		s.base = s.lastLogged
	} else {
		s = *st
	}
	s.chars = now
	s.edits++
	if !Significant(s.lastLogged, now) {
		return s, nil
	}
	sc := &significantChange{PreviousCharCount: s.lastLogged, NewCharCount: now, Delta: now - s.lastLogged}
	s.lastLogged = now
	return s, sc
}

// drain returns, ordered by path, the summaries of every file edited since
// its last summary — edit count, character delta since the last summary,
// current count — resetting the edit counts and moving lastLogged to the
// current count (scenario 4.2). Files without edits produce nothing
// (scenario 4.7).
func drain(files map[string]*fileState) []summary {
	var out []summary
	for path, st := range files {
		if st.edits == 0 {
			continue
		}
		out = append(out, summary{Path: path, EditCount: st.edits, CharDelta: st.chars - st.base, CharCount: st.chars})
		st.edits = 0
		st.lastLogged, st.base = st.chars, st.chars
	}
	slices.SortFunc(out, func(a, b summary) int { return strings.Compare(a.Path, b.Path) })
	return out
}
