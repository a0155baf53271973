package transcript

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
)

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
// A byte is below 0x20 or a quote (0x22) exactly when, with its bit 1
// flipped, it is below 0x21: one test for both. And both tests keep only
// lanes whose byte is below 0x80, since neither constant has a top bit:
// one &^ x for both.
func specialMask(x uint64) uint64 {
	return specialBits(x, swar[0], swar[1], swar[2], swar[3], swar[4])
}

// specialBits is specialMask with its constants passed in (see skipPlain).
func specialBits(x, flip, below, bs, one, high uint64) uint64 {
	return ((x ^ flip - below) | (x ^ bs - one)) &^ x & high
}

// swar holds specialMask's constants: flip, below, bs, one and high.
var swar = [...]uint64{0x02 * lanes01, 0x21 * lanes01, '\\' * lanes01, lanes01, lanes80}

// load64 is the eight bytes of data from i on as a little-endian number;
// i+8 must not pass len(data) (not checked).
func load64(data []byte, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(data)), i))[:])
}

// stringByte classifies the bytes of a JSON string for the validator:
// 0 ordinary, and for the special ones what they are.
var stringByte = func() (c [256]uint8) {
	for b := range 0x20 {
		c[b] = sbControl
	}
	c['"'], c['\\'] = sbQuote, sbBackslash
	return c
}()

// escapeByte classifies the byte after a backslash: esInvalid, esSimple
// (one of "\\/bfnrt) or esUnicode ('u', four hex digits follow).
var escapeByte = func() (c [256]uint8) {
	for _, b := range []byte(`"\\/bfnrt`) {
		c[b] = esSimple
	}
	c['u'] = esUnicode
	return c
}()

// hexByte marks the hex digits.
var hexByte = func() (h [256]bool) {
	for _, b := range []byte("0123456789abcdefABCDEF") {
		h[b] = true
	}
	return h
}()

const (
	sbOrdinary = iota
	sbControl
	sbQuote
	sbBackslash
)

const (
	esInvalid = iota
	esSimple
	esUnicode
)

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
