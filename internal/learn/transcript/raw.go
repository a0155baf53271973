package transcript

import "strings"

// rawField returns the raw JSON text of the top-level member key of the
// JSON object obj, without decoding it (gjson unescapes every string it
// returns, which for a multi-megabyte tool result is a copy of the whole
// text). It returns "" when obj is not an object or has no such member.
// obj must be valid JSON.
func rawField(obj, key string) string { return (*jumps)(nil).rawField(obj, key) }

// rawField is [rawField] stepping over the strings recorded in j.
func (j *jumps) rawField(obj, key string) string {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return ""
	}
	i++
	for {
		i = skipWS(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return ""
		}
		kEnd := j.skipString(obj, i)
		k := obj[i+1 : kEnd-1]
		i = skipWS(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return ""
		}
		i = skipWS(obj, i+1)
		vEnd := j.skipValue(obj, i)
		if k == key {
			return obj[i:vEnd]
		}
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return ""
		}
		i++
	}
}

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
	return (*jumps)(nil).skipString(s, i)
}

// skipString is [skipString] taking the end of a string the validator
// recorded from j.
func (j *jumps) skipString(s string, i int) int {
	if e, ok := j.end(s, i); ok {
		return e
	}
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
func (j *jumps) skipValue(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		return j.skipString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = j.skipString(s, i)
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
