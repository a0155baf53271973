package transcript

// MaxLineBytes is how much of one transcript line is kept. A longer line
// (a 60 MB message pasted in one turn) is cut to its first MaxLineBytes and
// closed into valid JSON by [closeJSON], so its message still counts with
// a bounded prefix of its text and memory stays bounded whatever one line
// holds. Learning looks at far less of a turn (classify.MaxTextBytes).
const MaxLineBytes = 4 << 20

// closeJSON turns prefix, the start of a JSON value cut anywhere, into
// valid JSON where it can: an incomplete escape is dropped, an open string
// value is closed (a character cut in two decodes as U+FFFD), a string cut
// inside an object key is removed with the comma before it, and open
// objects and arrays are closed. What cannot be repaired (a cut inside a
// number or literal, or right after a colon) stays invalid and is counted
// as a malformed line.
func closeJSON(prefix []byte) []byte {
	var stack []byte
	inString, isKey, expectKey := false, false, false
	strStart, cut := 0, len(prefix)
	for i := 0; i < len(prefix); i++ {
		c := prefix[i]
		if inString {
			switch c {
			case '\\':
				need := 1
				if i+1 < len(prefix) && prefix[i+1] == 'u' {
					need = 5
				}
				if i+need >= len(prefix) {
					cut = i // incomplete escape
					i = len(prefix)
					continue
				}
				i += need
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString, isKey, strStart = true, expectKey, i
			expectKey = false
		case '{':
			stack, expectKey = append(stack, '}'), true
		case '[':
			stack, expectKey = append(stack, ']'), false
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '}'
		}
	}
	out := prefix[:cut]
	if inString {
		if isKey {
			out = trimSep(prefix[:strStart])
		} else {
			out = append(out, '"')
		}
	} else {
		out = trimSep(out)
	}
	for i := len(stack) - 1; i >= 0; i-- {
		out = append(out, stack[i])
	}
	return out
}

// trimSep drops trailing white space and commas.
func trimSep(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == ',') {
		b = b[:len(b)-1]
	}
	return b
}
