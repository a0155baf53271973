package redact

// The prefilter answers, in one pass over the text and without allocating,
// whether any rule's hint occurs in it (ASCII case folded). Every rule is
// tried only at an occurrence of one of its hints (see [rule.apply]), so
// text without any hint passes every rule unchanged: [String] returns it at
// once instead of lower-casing it and searching it once per hint.

var (
	// pairGroup maps the first two bytes of a hint (lower case) to 1 + the
	// index in pairHints of the hints starting with them; 0 means none.
	pairGroup  [1 << 16]uint8
	pairHints  [][]string
	lowerASCII [256]byte
)

func init() {
	for c := range lowerASCII {
		lowerASCII[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			lowerASCII[c] = byte(c) + 'a' - 'A'
		}
	}
	for i := range rules {
		for _, h := range rules[i].hints {
			if len(h) < 2 || len(pairHints) >= 255 { // cannot happen: every hint has 3 bytes or more, and there are ~30
				panic("redact: hint shorter than 2 bytes or too many hints: " + h)
			}
			p := uint16(h[0])<<8 | uint16(h[1])
			if pairGroup[p] == 0 {
				pairHints = append(pairHints, nil)
				pairGroup[p] = uint8(len(pairHints))
			}
			g := pairGroup[p] - 1
			pairHints[g] = append(pairHints[g], h)
		}
	}
}

// mayHaveSecret reports whether asciiLower(s) contains a hint of any rule.
// When it is false, every rule leaves s as it is.
func mayHaveSecret(s string) bool {
	if len(s) < 2 {
		return false
	}
	prev := uint16(lowerASCII[s[0]])
	for i := 1; i < len(s); i++ {
		c := uint16(lowerASCII[s[i]])
		g := pairGroup[prev<<8|c]
		prev = c
		if g == 0 {
			continue
		}
		for _, h := range pairHints[g-1] {
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
