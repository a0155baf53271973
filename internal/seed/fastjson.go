package seed

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/jsonscan"
)

// fastDecode decodes the common shape of a seed file — JSON without \u
// escapes, with valid UTF-8 and at most maxFastDepth levels — into the
// same value encoding/json's generic decoding with UseNumber produces
// (map[string]any, []any, string, json.Number, bool, nil), three to four
// times faster: it allocates only the values themselves, with no
// reflection (issue 15: validating a 1,600-entry seed). ok is false for
// anything else, including every malformed input, and then the caller
// uses encoding/json, so the answers and the error texts stay exactly
// encoding/json's. FuzzFastDecode checks the two agree.
func fastDecode(data []byte) (v any, ok bool) {
	p := fastParser{b: data}
	p.space()
	v, ok = p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return v, p.i == len(p.b)
}

// maxFastDepth bounds the nesting fastDecode follows (encoding/json's own
// limit, 10,000, is left to encoding/json).
const maxFastDepth = 500

// fastParser is fastDecode's cursor over its input.
type fastParser struct {
	b []byte
	i int
}

// space skips JSON whitespace.
func (p *fastParser) space() { p.i = jsonscan.Space(p.b, p.i) }

// value parses the value at p.i, nested depth levels deep.
func (p *fastParser) value(depth int) (any, bool) {
	if p.i >= len(p.b) || depth > maxFastDepth {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		return s, ok
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	default:
		return p.number()
	}
}

// literal consumes word at p.i.
func (p *fastParser) literal(word string) bool {
	end := jsonscan.Literal(p.b, p.i, word)
	if end < 0 {
		return false
	}
	p.i = end
	return true
}

// object parses {"key": value, ...}; a repeated key keeps its last value,
// as encoding/json does.
func (p *fastParser) object(depth int) (any, bool) {
	p.i++ // '{'
	m := map[string]any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return m, true
	}
	for {
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.space()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		m[k] = v
		p.space()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			p.space()
		case '}':
			p.i++
			return m, true
		default:
			return nil, false
		}
	}
}

// array parses [value, ...]; the empty array is an empty, non-nil []any.
func (p *fastParser) array(depth int) (any, bool) {
	p.i++ // '['
	a := []any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return a, true
	}
	for {
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		p.space()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			p.space()
		case ']':
			p.i++
			return a, true
		default:
			return nil, false
		}
	}
}

// str parses a string at p.i (its opening quote). Strings with a \u
// escape, a control character or invalid UTF-8 are left to encoding/json.
func (p *fastParser) str() (string, bool) {
	p.i++ // '"'
	start, ascii := p.i, true
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
		p.i++
	}
	return "", false
}

// escaped finishes a string begun at start whose first backslash is at
// p.i, decoding the one-character escapes.
func (p *fastParser) escaped(start int) (string, bool) {
	out := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.Valid(out) {
				return "", false
			}
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			return "", false
		}
		e := unescape[p.b[p.i+1]]
		if e == 0 {
			return "", false // \u and invalid escapes
		}
		out = append(out, e)
		p.i += 2
	}
	return "", false
}

// unescape maps the letter of each one-character JSON escape to its byte;
// 0 for any other. An array is static data: a map would be built at
// start-up by every process that links the seed.
var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// number parses a JSON number into a json.Number of its exact text.
func (p *fastParser) number() (any, bool) {
	end, _ := jsonscan.Number(p.b, p.i)
	if end < 0 {
		return nil, false
	}
	n := json.Number(p.b[p.i:end])
	p.i = end
	return n, true
}
