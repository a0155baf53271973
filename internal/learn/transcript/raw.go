package transcript

import "strings"

// The scanning steps of the reader's walk, for the values of a line the
// tape did not record (see tape.go). They assume valid JSON.

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string literal starting at s[i]
// (len(s) when it is not closed): the first quote after s[i] not escaped,
// that is, not preceded by an odd run of backslashes. It jumps from quote
// to quote, so a long string costs a few IndexByte calls.
func skipString(s string, i int) int {
	k := i + 1
	for {
		q := strings.IndexByte(s[k:], '"')
		if q < 0 {
			return len(s)
		}
		k += q
		n := 0
		for p := k - 1; p > i && s[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return k + 1
		}
		k++
	}
}

// skipValue returns the index after the JSON value starting at s[i].
func skipValue(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = skipString(s, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(s)
	}
	for i < len(s) && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' && s[i] != '\t' && s[i] != '\r' {
		i++
	}
	return i
}
