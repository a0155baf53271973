package redact

// The prefilter answers, in one pass over the text and without allocating,
// whether any rule's hint occurs in it (ASCII case folded). Every rule is
// tried only at an occurrence of one of its hints (see [rule.apply]), so
// text without any hint passes every rule unchanged: [String] returns it at
// once instead of lower-casing it and searching it once per hint.

import "sync"

var lowerASCII [256]byte

func init() {
	for c := range lowerASCII {
		lowerASCII[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			lowerASCII[c] = byte(c) + 'a' - 'A'
		}
	}
}

// hintPairs indexes the rules' hints by their first two bytes.
type hintPairs struct {
	// group maps the first two bytes of a hint (lower case) to 1 + the
	// index in hints of the hints starting with them; 0 means none.
	group [1 << 16]uint8
	hints [][]string
}

// pairs is built on first use, with the rules (see [rules]).
var pairs = sync.OnceValue(func() *hintPairs {
	t := &hintPairs{}
	rules := rules()
	for i := range rules {
		for _, h := range rules[i].hints {
			if len(h) < 2 || len(t.hints) >= 255 { // cannot happen: every hint has 3 bytes or more, and there are ~30
				panic("redact: hint shorter than 2 bytes or too many hints: " + h)
			}
			p := uint16(h[0])<<8 | uint16(h[1])
			if t.group[p] == 0 {
				t.hints = append(t.hints, nil)
				t.group[p] = uint8(len(t.hints))
			}
			g := t.group[p] - 1
			t.hints[g] = append(t.hints[g], h)
		}
	}
	return t
})

// mayHaveSecret reports whether asciiLower(s) contains a hint of any rule.
// When it is false, every rule leaves s as it is.
func mayHaveSecret(s string) bool {
	if len(s) < 2 {
		return false
	}
	t := pairs()
	prev := uint16(lowerASCII[s[0]])
	for i := 1; i < len(s); i++ {
		c := uint16(lowerASCII[s[i]])
		g := t.group[prev<<8|c]
		prev = c
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

// hasPrefixLower reports whether asciiLower(s) starts with prefix.
func hasPrefixLower(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII[s[i]] != prefix[i] {
			return false
		}
	}
	return true
}
