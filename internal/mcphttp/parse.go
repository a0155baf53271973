package mcphttp

import (
	"bytes"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/jsonscan"
)

// call is a tools/call request as the direct path reads it. Every field is
// a sub-slice of the request body.
type call struct {
	id   []byte // an integer literal of at most 15 digits, or a string literal without escapes
	name string // the tool's name
	args []byte // the arguments object; nil when absent
	meta []byte // the _meta object; nil when absent
}

// idKey returns a key that is equal for equal JSON-RPC ids: "n" and the
// digits for a number, "s" and the text for a string.
func (c call) idKey() string { return idKey(c.id) }

func idKey(raw []byte) string {
	if len(raw) > 0 && raw[0] == '"' {
		return "s" + string(raw[1:len(raw)-1])
	}
	return "n" + string(raw)
}

// maxDepth is the deepest nesting the parser follows; deeper bodies go to
// the SDK.
const maxDepth = 64

// parseCall reads body as one JSON-RPC tools/call request in the subset the
// direct path answers: an object with exactly the members jsonrpc ("2.0"),
// id, method ("tools/call") and params, each once; an integer id (at most
// 15 digits, which the SDK's float64 ids keep exactly) or a string id
// without escapes; params an object with name (a string without escapes)
// and optionally arguments and _meta (objects), nothing else; a _meta that
// never mentions io.modelcontextprotocol/ (the SEP-2575 per-request
// protocol keys) and holds no escape; the request's and params' member
// names without escapes; valid UTF-8 throughout.
//
// It reports false for anything else, valid JSON or not: such a body goes
// to the SDK, which answers it (or rejects it) as it always did. A body it
// accepts is valid JSON that encoding/json decodes to the same values
// (FuzzParseCall).
func parseCall(body []byte) (call, bool) {
	var c call
	if !utf8.Valid(body) {
		return c, false
	}
	p := parser{b: body}
	var version, method, params []byte
	ok := p.object(func(key []byte) bool {
		var dst *[]byte
		switch string(key) {
		case "jsonrpc":
			dst = &version
		case "id":
			dst = &c.id
		case "method":
			dst = &method
		case "params":
			dst = &params
		default:
			return false
		}
		if *dst != nil {
			return false // a duplicate member
		}
		*dst = p.value()
		return *dst != nil
	})
	if !ok || !p.end() || string(version) != `"2.0"` || string(method) != `"tools/call"` ||
		!validID(c.id) || len(params) == 0 || params[0] != '{' {
		return call{}, false
	}
	var name []byte
	q := parser{b: params}
	ok = q.object(func(key []byte) bool {
		var dst *[]byte
		switch string(key) {
		case "name":
			dst = &name
		case "arguments":
			dst = &c.args
		case "_meta":
			dst = &c.meta
		default:
			return false
		}
		if *dst != nil {
			return false
		}
		*dst = q.value()
		return *dst != nil
	})
	// A _meta with any escape goes to the SDK: an escaped key could spell
	// io.modelcontextprotocol/ in a way bytes.Contains does not see.
	if !ok || !plainString(name) || (c.args != nil && c.args[0] != '{') || (c.meta != nil && c.meta[0] != '{') ||
		bytes.Contains(c.meta, []byte("io.modelcontextprotocol/")) || bytes.IndexByte(c.meta, '\\') >= 0 {
		return call{}, false
	}
	c.name = string(name[1 : len(name)-1])
	return c, true
}

// validID reports whether raw is an id the direct path echoes as it came.
func validID(raw []byte) bool {
	if plainString(raw) {
		return true
	}
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(raw) > 1) {
		return false // empty, too long for a float64, a leading zero or "-0"
	}
	for _, d := range digits {
		if d < '0' || d > '9' {
			return false
		}
	}
	return true
}

// plainString reports whether raw is a string literal without escapes.
func plainString(raw []byte) bool {
	return len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw[1:len(raw)-1], '\\') < 0
}

// parser walks a JSON text; it never allocates.
type parser struct {
	b []byte
	i int
}

func (p *parser) space() { p.i = jsonscan.Space(p.b, p.i) }

// end reports whether only whitespace is left.
func (p *parser) end() bool {
	p.space()
	return p.i == len(p.b)
}

// object reads an object whose member names have no escapes, calling
// member with each name (the parser then at the member's value, which
// member must read). It reports whether the object was read whole.
func (p *parser) object(member func(key []byte) bool) bool {
	p.space()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return false
	}
	p.i++
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return true
	}
	for {
		p.space()
		start := p.i
		if p.i, _ = jsonscan.StringEnd(p.b, start); p.i < 0 {
			return false
		}
		key := p.b[start:p.i]
		if !plainString(key) {
			return false
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return false
		}
		p.i++
		if !member(key[1 : len(key)-1]) {
			return false
		}
		p.space()
		if p.i >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return true
		default:
			return false
		}
	}
}

// value reads one JSON value (jsonscan.Skip: checked whole, nested at
// most maxDepth deep) and returns its text, or nil if it is not valid JSON.
func (p *parser) value() []byte {
	p.space()
	start := p.i
	end := jsonscan.Skip(p.b, start, 0, maxDepth)
	if end < 0 {
		return nil
	}
	p.i = end
	return p.b[start:end]
}
