package transcript

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
)

// The reader's JSON access. A transcript line is validated once
// ([validJSON], exactly gjson.ValidBytes but skipping the bytes of strings
// eight at a time), then only the members the reader needs are located by
// skipping over everything else ([members], [getField], [elements]): a
// 50 KB tool result is stepped over with a few IndexByte calls instead of
// being walked by gjson's byte loops again for each field looked up. A
// value found is handed to gjson.Parse, so the reader sees exactly the
// gjson.Result that gjson.Get or ForEach would have given it. All of these
// assume valid JSON (the line passed validJSON).

// members calls fn with the key (unescaped, as gjson's ForEach gives it)
// and the raw value of each member of the JSON object obj, in order, until
// fn returns false. It does nothing when obj is not an object.
func (j *jumps) members(obj string, fn func(key, val string) bool) {
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
		kEnd := j.skipString(obj, i)
		k := obj[i+1 : kEnd-1]
		if strings.IndexByte(k, '\\') >= 0 {
			k = gjson.Parse(obj[i:kEnd]).Str
		}
		i = skipWS(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipWS(obj, i+1)
		vEnd := j.skipValue(obj, i)
		if !fn(k, obj[i:vEnd]) {
			return
		}
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i++
	}
}

// getField is gjson.Get(obj, key) for a plain key (no path syntax): the
// first member named key, or the zero Result.
func (j *jumps) getField(obj, key string) gjson.Result {
	var out gjson.Result
	j.members(obj, func(k, v string) bool {
		if k != key {
			return true
		}
		out = gjson.Parse(v)
		return false
	})
	return out
}

// elements calls fn with each element of the JSON array arr, as gjson's
// ForEach would give it, until fn returns false. When arr is not an
// array, gjson's ForEach itself runs (an object's members, a scalar once).
func (j *jumps) elements(arr string, fn func(v gjson.Result) bool) {
	i := skipWS(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		gjson.Parse(arr).ForEach(func(_, v gjson.Result) bool { return fn(v) })
		return
	}
	i++
	for {
		i = skipWS(arr, i)
		if i >= len(arr) || arr[i] == ']' {
			return
		}
		end := j.skipValue(arr, i)
		if !fn(gjson.Parse(arr[i:end])) {
			return
		}
		i = skipWS(arr, end)
		if i >= len(arr) || arr[i] != ',' {
			return
		}
		i++
	}
}

// strValue is gjson.Parse(raw).Str: the decoded text of a string value,
// "" for any other value.
func strValue(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if s := raw[1 : len(raw)-1]; strings.IndexByte(s, '\\') < 0 {
		return s
	}
	return gjson.Parse(raw).Str
}

// swar constants: a byte in every lane.
const (
	lanes01 = 0x0101010101010101
	lanes80 = 0x8080808080808080
)

// specialMask has the top bit of a byte's lane set for each byte of x
// that may be special: below 0x20, a quote or a backslash, the bytes a
// JSON string scanner has to stop at; the lowest one set is exactly the
// first special byte (the borrows that may flag a later byte come only
// from a special byte before it), so bits.TrailingZeros64/8 is its index.
func specialMask(x uint64) uint64 {
	q := x ^ ('"' * lanes01)
	b := x ^ ('\\' * lanes01)
	zero := (q - lanes01) &^ q
	zero |= (b - lanes01) &^ b
	zero |= (x - 0x20*lanes01) &^ x
	return zero & lanes80
}

// validJSON reports whether data is one JSON value with optional white
// space around it, exactly as gjson.ValidBytes does (gjson checks neither
// UTF-8 nor nesting depth; neither does this).
func validJSON(data []byte) bool { return (*jumps)(nil).valid(data) }

// valid is [validJSON], recording in j (when not nil) where the long
// strings of data end; j must have been reset to data.
func (j *jumps) valid(data []byte) bool {
	_, ok := j.vPayload(data, 0)
	return ok
}

// longString is the length from which the validator records a string.
const longString = 128

// jumps remembers where the long strings of the line being read end (the
// validator finds it anyway), so that stepping over a long value again —
// the line's members, the message's, each block's — takes a lookup instead
// of a scan. A nil *jumps, or a string it did not record, is scanned.
type jumps struct {
	base uintptr  // address of the line's first byte
	size int      // length of the line
	long [][2]int // start and end offsets in the line of the long strings, in order
}

// reset starts recording for line.
func (j *jumps) reset(line []byte) {
	j.base, j.size, j.long = uintptr(unsafe.Pointer(unsafe.SliceData(line))), len(line), j.long[:0]
}

// end returns the index in s after the string literal starting at s[i],
// when it is a recorded one lying whole inside s.
func (j *jumps) end(s string, i int) (int, bool) {
	if j == nil || len(j.long) == 0 {
		return 0, false
	}
	at := uintptr(unsafe.Pointer(unsafe.StringData(s))) + uintptr(i)
	if at < j.base || at >= j.base+uintptr(j.size) {
		return 0, false
	}
	off := int(at - j.base)
	k := sort.Search(len(j.long), func(k int) bool { return j.long[k][0] >= off })
	if k == len(j.long) || j.long[k][0] != off {
		return 0, false
	}
	e := i + j.long[k][1] - off
	if e > len(s) {
		return 0, false
	}
	return e, true
}

// unescape is gjson's unescape (v1.18.0, MIT licence): the text of the
// body of a JSON string literal, cut at a control byte or a bad escape.
func unescape(json string) string {
	str := make([]byte, 0, len(json))
	for i := 0; i < len(json); i++ {
		switch {
		default:
			str = append(str, json[i])
		case json[i] < ' ':
			return string(str)
		case json[i] == '\\':
			i++
			if i >= len(json) {
				return string(str)
			}
			switch json[i] {
			default:
				return string(str)
			case '\\':
				str = append(str, '\\')
			case '/':
				str = append(str, '/')
			case 'b':
				str = append(str, '\b')
			case 'f':
				str = append(str, '\f')
			case 'n':
				str = append(str, '\n')
			case 'r':
				str = append(str, '\r')
			case 't':
				str = append(str, '\t')
			case '"':
				str = append(str, '"')
			case 'u':
				if i+5 > len(json) {
					return string(str)
				}
				r := runeit(json[i+1:])
				i += 5
				if utf16.IsSurrogate(r) {
					if len(json[i:]) >= 6 && json[i] == '\\' && json[i+1] == 'u' {
						r = utf16.DecodeRune(r, runeit(json[i+2:]))
						i += 6
					}
				}
				str = utf8.AppendRune(str, r)
				i--
			}
		}
	}
	return string(str)
}

func runeit(json string) rune {
	n, _ := strconv.ParseUint(json[:4], 16, 64)
	return rune(n)
}
