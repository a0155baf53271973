package wsapi

import "github.com/paige-dev/paige/internal/jsonscan"

// maxScanDepth bounds the nesting the scanner follows (encoding/json's own
// limit, 10,000, is left to encoding/json).
const maxScanDepth = 64

// number consumes the JSON number at the cursor and returns its text and
// whether it is an integer (no fraction, no exponent).
func (s *scanner) number() (lit []byte, integer, ok bool) {
	end, integer := jsonscan.Number(s.b, s.i)
	if end < 0 {
		return nil, false, false
	}
	lit, s.i = s.b[s.i:end], end
	return lit, integer, true
}

// smallInt parses an integer literal of at most 15 digits (exact as a
// float64 too); ok is false for anything else.
func smallInt(lit []byte, integer bool) (n int64, ok bool) {
	digits := lit
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if !integer || len(digits) > 15 {
		return 0, false
	}
	for _, c := range digits {
		n = n*10 + int64(c-'0')
	}
	if lit[0] == '-' {
		n = -n
	}
	return n, true
}

// skip consumes and validates the JSON value at the cursor, depth levels
// deep.
func (s *scanner) skip(depth int) bool {
	end := jsonscan.Skip(s.b, s.i, depth, maxScanDepth)
	if end < 0 {
		return false
	}
	s.i = end
	return true
}

// literal consumes word (true, false, null) at the cursor.
func (s *scanner) literal(word string) bool {
	end := jsonscan.Literal(s.b, s.i, word)
	if end < 0 {
		return false
	}
	s.i = end
	return true
}
