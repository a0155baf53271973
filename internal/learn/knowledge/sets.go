package knowledge

import (
	"slices"
	"strings"
)

// sortedSet is a set of words as a sorted slice without repeats. The sets
// dedup compares hold a few words each: a sorted slice is cheaper to build
// than a map, and two of them intersect in one merge.
type sortedSet []string

// newSortedSet sorts ws in place and drops its repeats.
func newSortedSet(ws []string) sortedSet {
	slices.Sort(ws)
	return slices.Compact(ws)
}

// has reports whether w is in s.
func (s sortedSet) has(w string) bool {
	_, ok := slices.BinarySearch(s, w)
	return ok
}

// common returns how many words s and t share.
func (s sortedSet) common(t sortedSet) int {
	n := 0
	for i, j := 0, 0; i < len(s) && j < len(t); {
		switch c := strings.Compare(s[i], t[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// intersects reports whether s and t share a word.
func (s sortedSet) intersects(t sortedSet) bool {
	for i, j := 0, 0; i < len(s) && j < len(t); {
		switch c := strings.Compare(s[i], t[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			return true
		}
	}
	return false
}

// within reports whether every word of s is in t.
func (s sortedSet) within(t sortedSet) bool { return s.common(t) == len(s) }

// jaccard is |a ∩ b| / |a ∪ b|, 0 when both are empty.
func jaccard(a, b sortedSet) float64 {
	inter := a.common(b)
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// appendFields appends to dst the fields of s, split at the bytes sep
// reports: s must be lower-case ASCII or have been through strings.ToLower,
// and sep must hold for no byte of a multi-byte character (all of them are
// 0x80 or more), so splitting bytes splits as [strings.FieldsFunc] splits
// runes.
func appendFields(dst []string, s string, sep func(byte) bool) []string {
	start := -1
	for i := 0; i < len(s); i++ {
		if sep(s[i]) {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// finishSet makes the words of words added since the last set ended (at
// the last of ends) a set, sorted and without repeats, and records its end.
// The sets are built so in scratch arrays (readInto) and copied out only
// for the entries an index keeps (indexed.own).
func finishSet(words []string, ends []int) ([]string, []int) {
	start := 0
	if n := len(ends); n > 0 {
		start = ends[n-1]
	}
	words = words[:start+len(newSortedSet(words[start:]))]
	return words, append(ends, len(words))
}
