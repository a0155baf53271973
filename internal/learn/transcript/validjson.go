package transcript

import "math/bits"

// The JSON validator of the reader: gjson v1.18.0's (MIT licence,
// github.com/tidwall/gjson, Copyright (c) 2016 Josh Baker; the copy in
// fastjson.go of its unescape too), renamed, with two changes: [vString]
// steps over eight ordinary bytes at a time and jumps to the first special
// one ([specialMask]), and with a non-nil *tape each value checked is
// recorded as a node (see tape.go). It accepts exactly what
// gjson.ValidBytes accepts (FuzzValidJSON).

// validJSON reports whether data is one JSON value with optional white
// space around it, exactly as gjson.ValidBytes does (gjson checks neither
// UTF-8 nor nesting depth; neither does this).
func validJSON(data []byte) bool { return (*tape)(nil).valid(data) }

// valid is [validJSON], recording the values of data in t (when not nil);
// t must have been reset to data.
func (t *tape) valid(data []byte) bool {
	_, ok := t.vPayload(data, 0)
	return ok
}

func (t *tape) vPayload(data []byte, i int) (outi int, ok bool) {
	for ; i < len(data); i++ {
		switch data[i] {
		default:
			i, ok = t.vAny(data, i)
			if !ok {
				return i, false
			}
			for ; i < len(data); i++ {
				switch data[i] {
				default:
					return i, false
				case ' ', '\t', '\n', '\r':
					continue
				}
			}
			return i, true
		case ' ', '\t', '\n', '\r':
			continue
		}
	}
	return i, false
}
func (t *tape) vAny(data []byte, i int) (outi int, ok bool) {
	for ; i < len(data); i++ {
		switch data[i] {
		default:
			return i, false
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			return t.vContainer(data, i)
		case '"':
			return t.vString(data, i+1)
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return t.vLeaf(data, i, vNumber)
		case 't':
			return t.vLeaf(data, i, vTrue)
		case 'f':
			return t.vLeaf(data, i, vFalse)
		case 'n':
			return t.vLeaf(data, i, vNull)
		}
	}
	return i, false
}

// vContainer checks the object or array starting at data[start] and
// records it (its node first, then its members' or elements').
func (t *tape) vContainer(data []byte, start int) (outi int, ok bool) {
	n := t.open(start)
	if data[start] == '{' {
		outi, ok = t.vObject(data, start+1)
	} else {
		outi, ok = t.vArray(data, start+1)
	}
	if ok {
		t.close(n, outi)
	}
	return outi, ok
}

// vLeaf checks with check the number or literal starting at data[start]
// and records it.
func (t *tape) vLeaf(data []byte, start int, check func([]byte, int) (int, bool)) (outi int, ok bool) {
	outi, ok = check(data, start+1)
	if ok {
		t.leaf(start, outi, false)
	}
	return outi, ok
}
func (t *tape) vObject(data []byte, i int) (outi int, ok bool) {
	for ; i < len(data); i++ {
		switch data[i] {
		default:
			return i, false
		case ' ', '\t', '\n', '\r':
			continue
		case '}':
			return i + 1, true
		case '"':
		key:
			if i, ok = t.vString(data, i+1); !ok {
				return i, false
			}
			if i, ok = t.vColon(data, i); !ok {
				return i, false
			}
			if i, ok = t.vAny(data, i); !ok {
				return i, false
			}
			if i, ok = t.vComma(data, i, '}'); !ok {
				return i, false
			}
			if data[i] == '}' {
				return i + 1, true
			}
			i++
			for ; i < len(data); i++ {
				switch data[i] {
				default:
					return i, false
				case ' ', '\t', '\n', '\r':
					continue
				case '"':
					goto key
				}
			}
			return i, false
		}
	}
	return i, false
}
func (t *tape) vColon(data []byte, i int) (outi int, ok bool) {
	for ; i < len(data); i++ {
		switch data[i] {
		default:
			return i, false
		case ' ', '\t', '\n', '\r':
			continue
		case ':':
			return i + 1, true
		}
	}
	return i, false
}
func (t *tape) vComma(data []byte, i int, end byte) (outi int, ok bool) {
	for ; i < len(data); i++ {
		switch data[i] {
		default:
			return i, false
		case ' ', '\t', '\n', '\r':
			continue
		case ',':
			return i, true
		case end:
			return i, true
		}
	}
	return i, false
}
func (t *tape) vArray(data []byte, i int) (outi int, ok bool) {
	for ; i < len(data); i++ {
		switch data[i] {
		default:
			for ; i < len(data); i++ {
				if i, ok = t.vAny(data, i); !ok {
					return i, false
				}
				if i, ok = t.vComma(data, i, ']'); !ok {
					return i, false
				}
				if data[i] == ']' {
					return i + 1, true
				}
			}
		case ' ', '\t', '\n', '\r':
			continue
		case ']':
			return i + 1, true
		}
	}
	return i, false
}
func vNumber(data []byte, i int) (outi int, ok bool) {
	i--
	// sign
	if data[i] == '-' {
		i++
		if i == len(data) {
			return i, false
		}
		if data[i] < '0' || data[i] > '9' {
			return i, false
		}
	}
	// int
	if i == len(data) {
		return i, false
	}
	if data[i] == '0' {
		i++
	} else {
		for ; i < len(data); i++ {
			if data[i] >= '0' && data[i] <= '9' {
				continue
			}
			break
		}
	}
	// frac
	if i == len(data) {
		return i, true
	}
	if data[i] == '.' {
		i++
		if i == len(data) {
			return i, false
		}
		if data[i] < '0' || data[i] > '9' {
			return i, false
		}
		i++
		for ; i < len(data); i++ {
			if data[i] >= '0' && data[i] <= '9' {
				continue
			}
			break
		}
	}
	// exp
	if i == len(data) {
		return i, true
	}
	if data[i] == 'e' || data[i] == 'E' {
		i++
		if i == len(data) {
			return i, false
		}
		if data[i] == '+' || data[i] == '-' {
			i++
		}
		if i == len(data) {
			return i, false
		}
		if data[i] < '0' || data[i] > '9' {
			return i, false
		}
		i++
		for ; i < len(data); i++ {
			if data[i] >= '0' && data[i] <= '9' {
				continue
			}
			break
		}
	}
	return i, true
}

func vTrue(data []byte, i int) (outi int, ok bool) {
	if i+3 <= len(data) && data[i] == 'r' && data[i+1] == 'u' &&
		data[i+2] == 'e' {
		return i + 3, true
	}
	return i, false
}
func vFalse(data []byte, i int) (outi int, ok bool) {
	if i+4 <= len(data) && data[i] == 'a' && data[i+1] == 'l' &&
		data[i+2] == 's' && data[i+3] == 'e' {
		return i + 4, true
	}
	return i, false
}
func vNull(data []byte, i int) (outi int, ok bool) {
	if i+3 <= len(data) && data[i] == 'u' && data[i+1] == 'l' &&
		data[i+2] == 'l' {
		return i + 3, true
	}
	return i, false
}

// vString is gjson's validstring (i is just after the opening quote):
// the same checks, made at the special bytes only (a quote, a backslash, a
// control byte), which [skipPlain] finds eight bytes at a time. The
// string is recorded with whether it holds an escape.
func (t *tape) vString(data []byte, i int) (outi int, ok bool) {
	start, escaped := i-1, false
	for {
		var esc bool
		i, esc = skipPlain(data, i)
		escaped = escaped || esc
		if i >= len(data) {
			return i, false
		}
		switch stringByte[data[i]] {
		case sbQuote:
			t.leaf(start, i+1, escaped)
			return i + 1, true
		case sbBackslash: // not a one-letter escape
			escaped = true
			if i+6 > len(data) || escapeByte[data[i+1]] != esUnicode ||
				!hexByte[data[i+2]] || !hexByte[data[i+3]] || !hexByte[data[i+4]] || !hexByte[data[i+5]] {
				return i, false
			}
			i += 6
		default: // a control byte
			return i, false
		}
	}
}

// skipPlain steps over the bytes of a string in data from i on that
// need no more than a look: ordinary bytes and one-letter escapes (\n,
// \", …). It returns the index of the first other byte (a quote, a
// control byte, a backslash before anything else), or len(data), and
// whether it stepped over an escape. It looks for special bytes sixteen
// at a time (the lowest lane flagged by [specialMask]).
func skipPlain(data []byte, i int) (int, bool) {
	flip, below, bs, one, high := swar[0], swar[1], swar[2], swar[3], swar[4] // in registers: Go's compiler would load each constant again on every step
	escaped := false
	for {
		var m uint64
		for ; i+16 <= len(data); i += 16 {
			x, y := load64(data, i), load64(data, i+8)
			mx := specialBits(x, flip, below, bs, one, high)
			my := specialBits(y, flip, below, bs, one, high)
			if mx|my != 0 {
				if m = mx; mx == 0 {
					i, m = i+8, my
				}
				break
			}
		}
		if m == 0 {
			break // fewer than sixteen bytes left
		}
		i += bits.TrailingZeros64(m) >> 3
		if data[i] != '\\' || i+1 >= len(data) || escapeByte[data[i+1]] != esSimple {
			return i, escaped
		}
		escaped = true
		i += 2
	}
	for ; i < len(data); i++ { // the last few bytes
		switch stringByte[data[i]] {
		case sbOrdinary:
			continue
		case sbBackslash:
			if i+1 < len(data) && escapeByte[data[i+1]] == esSimple {
				escaped = true
				i++
				continue
			}
		}
		return i, escaped
	}
	return i, escaped
}
