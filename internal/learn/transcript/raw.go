package transcript

// rawField returns the raw JSON text of the top-level member key of the
// JSON object obj, without decoding it (gjson unescapes every string it
// returns, which for a multi-megabyte tool result is a copy of the whole
// text). It returns "" when obj is not an object or has no such member.
// obj must be valid JSON.
func rawField(obj, key string) string {
	var out [1]string
	rawFields(obj, []string{key}, out[:])
	return out[0]
}

// rawFields sets out[k] to the raw JSON text of the top-level member
// keys[k] of the JSON object obj ("" when it has none), in one pass over
// obj. obj must be valid JSON; out must be as long as keys.
func rawFields(obj string, keys, out []string) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i++
	for {
		i = skipWS(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return
		}
		kEnd := skipString(obj, i)
		k := obj[i+1 : kEnd-1]
		i = skipWS(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipWS(obj, i+1)
		vEnd := skipValue(obj, i)
		for n, key := range keys {
			if k == key {
				out[n] = obj[i:vEnd]
			}
		}
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return
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

// skipString returns the index after the string literal starting at s[i].
func skipString(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s)
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
