package redact

// The prefilter answers, in one pass over the text and without allocating,
// whether any rule's hint occurs in it (ASCII case folded). A rule is tried
// only at an occurrence of one of its hints (see [rule.apply]), so text
// without any hint passes every rule unchanged: [String] and [JSON] return
// it at once instead of lower-casing it and searching it once per hint.

import (
	"bytes"
	"sync"
)

// mayHaveSecret reports whether asciiLower(s) contains a hint of any rule.
// When it is false, every rule leaves s as it is.
func mayHaveSecret[T string | []byte](s T) bool {
	t := hintTable()
	if len(s) < 2 {
		return false
	}
	pair := uint16(t.lower[s[0]])
	for i := 1; i < len(s); i++ {
		pair = pair<<8 | uint16(t.lower[s[i]])
		g := t.group[pair]
		if g == 0 {
			continue
		}
		for _, h := range t.hints[g-1] {
			if hasPrefixLower(s[i-1:], h) {
				return true
			}
		}
	}
	return false
}

// jsonMayHaveSecret reports whether a string of raw, once decoded, may hold
// a hint: raw holds a hint, or a backslash escape that could hide one
// (\u0070assword, hooks.slack.com\/services). When it is false, every
// string of raw is a substring of it without a hint, no key names a secret
// (every secret name holds an assignment hint), and JSON keeps raw as is.
func jsonMayHaveSecret(raw []byte) bool {
	return bytes.IndexByte(raw, '\\') >= 0 || mayHaveSecret(raw)
}

// hintIndex holds the rules' hints by their first two bytes.
type hintIndex struct {
	// group maps the first two bytes of a hint to 1 + the index in hints
	// of the hints starting with them; 0 means none.
	group [1 << 16]uint8
	hints [][]string
	lower [256]byte // lowerByte of each byte
}

// hintTable is built on first use, from the rules (see [rules]).
var hintTable = sync.OnceValue(func() *hintIndex {
	t := &hintIndex{}
	for c := range t.lower {
		t.lower[c] = lowerByte(byte(c))
	}
	rules := rules()
	for i := range rules {
		for _, h := range rules[i].hints {
			if len(h) < 2 { // cannot happen: TestHintsFromRegexp keeps hints to 2 bytes or more
				panic("redact: hint shorter than 2 bytes: " + h)
			}
			p := uint16(h[0])<<8 | uint16(h[1])
			if t.group[p] == 0 {
				if len(t.hints) == 255 { // cannot happen: TestPrefilter builds the table from 40 pairs
					panic("redact: more than 255 hint pairs")
				}
				t.hints = append(t.hints, nil)
				t.group[p] = uint8(len(t.hints))
			}
			t.hints[t.group[p]-1] = append(t.hints[t.group[p]-1], h)
		}
	}
	return t
})

// lowerByte lower-cases an ASCII letter and returns any other byte as is.
func lowerByte(c byte) byte {
	if c-'A' < 26 {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixLower reports whether asciiLower(s) starts with prefix.
func hasPrefixLower[T string | []byte](s T, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerByte(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}
