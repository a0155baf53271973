package wsapi

// number consumes the JSON number at the cursor and returns its text and
// whether it is an integer (no fraction, no exponent).
func (s *scanner) number() (lit []byte, integer, ok bool) {
	start := s.i
	if s.peek() == '-' {
		s.i++
	}
	switch c := s.peek(); {
	case c == '0':
		s.i++
	case '1' <= c && c <= '9':
		s.digits()
	default:
		return nil, false, false
	}
	integer = true
	if s.peek() == '.' {
		s.i++
		if !s.digits() {
			return nil, false, false
		}
		integer = false
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if !s.digits() {
			return nil, false, false
		}
		integer = false
	}
	return s.b[start:s.i], integer, true
}

// digits consumes one or more decimal digits and reports whether there was one.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
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
	if depth > maxScanDepth {
		return false
	}
	switch c := s.peek(); c {
	case '{', '[':
		return s.skipContainer(depth, c)
	case '"':
		_, ok := s.str()
		return ok
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	_, _, ok := s.number()
	return ok
}

// skipContainer consumes and validates the object or array at the cursor.
func (s *scanner) skipContainer(depth int, open byte) bool {
	end := byte(']')
	if open == '{' {
		end = '}'
	}
	s.i++
	if s.consume(end) {
		return true
	}
	for more := true; more; {
		s.space()
		if open == '{' {
			if _, ok := s.str(); !ok || !s.consume(':') {
				return false
			}
			s.space()
		}
		if !s.skip(depth + 1) {
			return false
		}
		var ok bool
		if more, ok = s.next(end); !ok {
			return false
		}
	}
	return true
}

// literal consumes word (true, false, null) at the cursor.
func (s *scanner) literal(word string) bool {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}
