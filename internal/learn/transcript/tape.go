package transcript

import (
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// The reader's JSON access. A transcript line is validated once
// ([tape.valid], exactly gjson.ValidBytes), and the validator records each
// value it checks as a node of the line's tape, in the order the values
// start. The reader then walks the tape: an object's members (its key and
// value nodes in turn) and an array's elements are reached by following
// each node's next index, so finding a field costs a few node hops and key
// comparisons, never a second look at the bytes of the values stepped
// over. A line of more than maxNodes values is walked by scanning from
// where recording stopped ([skipValue]), with the same answers.

// node is one JSON value of the line: line[start:end] (a line is at most
// MaxLineBytes and its closing brackets, so offsets fit in int32). next is the index
// of the node after the value and everything inside it (for a string,
// number or literal the next node); -1 when recording stopped inside it,
// so that not all of its members are on the tape. escaped tells whether a
// string literal holds a backslash.
type node struct {
	start, end int32
	next       int32
	escaped    bool
}

// maxNodes bounds the tape of one line (16 bytes a node): a line of more
// values is partly walked by scanning instead.
const maxNodes = 1 << 14

// tape is the line being read and the values the validator found in it.
// A nil *tape records nothing.
type tape struct {
	line    string
	nodes   []node
	stopped bool // the line had more values than the tape holds
	limit   int  // nodes held at most; 0 means maxNodes (tests lower it)
}

// reset starts recording for line, which must stay unchanged while the
// tape is used.
func (t *tape) reset(line []byte) {
	t.line = unsafe.String(unsafe.SliceData(line), len(line))
	t.nodes, t.stopped = t.nodes[:0], false
}

// open records the object or array starting at start and returns its
// node, -1 when recording stopped.
func (t *tape) open(start int) int32 {
	if t == nil || t.stopped || t.full() {
		return -1
	}
	t.nodes = append(t.nodes, node{start: int32(start), next: -1})
	return int32(len(t.nodes) - 1)
}

// close records the end of the container n; its next index stays unknown
// when recording stopped inside it.
func (t *tape) close(n int32, end int) {
	if n < 0 {
		return
	}
	t.nodes[n].end = int32(end)
	if !t.stopped {
		t.nodes[n].next = int32(len(t.nodes))
	}
}

// leaf records the string, number or literal line[start:end].
func (t *tape) leaf(start, end int, escaped bool) {
	if t == nil || t.stopped || t.full() {
		return
	}
	t.nodes = append(t.nodes, node{start: int32(start), end: int32(end), next: int32(len(t.nodes) + 1), escaped: escaped})
}

// full stops recording when the tape holds its limit of nodes.
func (t *tape) full() bool {
	limit := t.limit
	if limit == 0 {
		limit = maxNodes
	}
	t.stopped = len(t.nodes) >= limit
	return t.stopped
}

// val is a value of the line, line[start:end], with its node (-1 when it
// was found by scanning). The zero-length val none is a member not found.
type val struct {
	start, end, node int32
}

var none = val{node: -1}

// root is the line's value: the first node.
func (t *tape) root() val { return t.at(0) }

// at is the value of node n.
func (t *tape) at(n int32) val { return val{t.nodes[n].start, t.nodes[n].end, n} }

// raw is the JSON text of v ("" for none).
func (t *tape) raw(v val) string { return t.line[v.start:v.end] }

// first returns the first child of the object or array v: an object's
// first key, an array's first element; ok is false when it is empty.
func (t *tape) first(v val) (val, bool) {
	if t.walkable(v) {
		c := v.node + 1
		if c >= t.nodes[v.node].next {
			return none, false
		}
		return t.at(c), true
	}
	i := skipWS(t.line, int(v.start)+1)
	if t.line[i] == '}' || t.line[i] == ']' {
		return none, false
	}
	return t.scanned(i), true
}

// after returns the child of the object or array p that follows its child
// c: in an object a key's value or a value's next key; ok is false after
// the last.
func (t *tape) after(p, c val) (val, bool) {
	if t.walkable(p) {
		n := t.nodes[c.node].next
		if n >= t.nodes[p.node].next {
			return none, false
		}
		return t.at(n), true
	}
	i := skipWS(t.line, int(c.end))
	if t.line[i] != ',' && t.line[i] != ':' {
		return none, false
	}
	return t.scanned(skipWS(t.line, i+1)), true
}

// walkable tells whether all of v's children are on the tape.
func (t *tape) walkable(v val) bool { return v.node >= 0 && t.nodes[v.node].next >= 0 }

// scanned is the value starting at line[i], found by scanning.
func (t *tape) scanned(i int) val {
	return val{int32(i), int32(skipValue(t.line, i)), -1}
}

// member calls fn with the key and the value of each member of the object
// v, in order, until fn returns false; nothing when v is not an object.
func (t *tape) member(v val, fn func(k, v val) bool) {
	if !t.isObject(v) {
		return
	}
	if t.walkable(v) { // a key's node is followed by its value's
		for k, end := v.node+1, t.nodes[v.node].next; k < end; k = t.nodes[k+1].next {
			if !fn(t.at(k), t.at(k+1)) {
				return
			}
		}
		return
	}
	for k, ok := t.first(v); ok; {
		value, _ := t.after(v, k)
		if !fn(k, value) {
			return
		}
		k, ok = t.after(v, value)
	}
}

// field is gjson.Get for a plain key (no path syntax): the value of the
// first member of the object v whose key decodes to name, or none.
func (t *tape) field(v val, name string) val { return t.lookup(v, name, false) }

// rawField is [tape.field] comparing each key as written, undecoded (as
// the reader's raw lookup of a tool result always did): an escaped key
// matches no plain name.
func (t *tape) rawField(v val, name string) val { return t.lookup(v, name, true) }

// lookup is field (raw false) or rawField (raw true).
func (t *tape) lookup(v val, name string, raw bool) val {
	if !t.isObject(v) {
		return none
	}
	if t.walkable(v) {
		for k, end := v.node+1, t.nodes[v.node].next; k < end; k = t.nodes[k+1].next {
			if t.keyIs(t.at(k), name, raw) {
				return t.at(k + 1)
			}
		}
		return none
	}
	for k, ok := t.first(v); ok; {
		value, _ := t.after(v, k)
		if t.keyIs(k, name, raw) {
			return value
		}
		k, ok = t.after(v, value)
	}
	return none
}

// keyIs tells whether the key k decodes to name, or (raw) is written as
// name.
func (t *tape) keyIs(k val, name string, raw bool) bool {
	if body := t.line[k.start+1 : k.end-1]; raw || !t.escaped(k) {
		return body == name
	}
	return strValue(t.raw(k)) == name
}

// escaped tells whether the string value v holds a backslash.
func (t *tape) escaped(v val) bool {
	if v.node >= 0 {
		return t.nodes[v.node].escaped
	}
	return strings.IndexByte(t.raw(v), '\\') >= 0
}

// elements calls fn with each value gjson's ForEach gives for v, until fn
// returns false: an array's elements, an object's member values, any other
// value once, nothing for none.
func (t *tape) elements(v val, fn func(v val) bool) {
	switch {
	case v.start == v.end:
	case t.line[v.start] == '[' && t.walkable(v):
		for e, end := v.node+1, t.nodes[v.node].next; e < end && fn(t.at(e)); {
			e = t.nodes[e].next
		}
	case t.line[v.start] == '[':
		for e, ok := t.first(v); ok && fn(e); {
			e, ok = t.after(v, e)
		}
	case t.line[v.start] == '{':
		t.member(v, func(_, value val) bool { return fn(value) })
	default:
		fn(v)
	}
}

// str is gjson's Result.Str: the decoded text of a string, "" for any
// other value. It points into the line unless the string has an escape.
func (t *tape) str(v val) string {
	if !t.isString(v) {
		return ""
	}
	if !t.escaped(v) {
		return t.line[v.start+1 : v.end-1]
	}
	return strValue(t.raw(v))
}

// text is gjson's Result.String(): a string decoded, any other value as
// gjson writes it ("" for null and none).
func (t *tape) text(v val) string {
	if v.start == v.end || t.line[v.start] == '"' {
		return t.str(v)
	}
	return gjson.Parse(t.raw(v)).String()
}

// isTrue, isString and isObject tell what v is (none is none of them).
func (t *tape) isTrue(v val) bool   { return t.raw(v) == "true" }
func (t *tape) isString(v val) bool { return v.start < v.end && t.line[v.start] == '"' }
func (t *tape) isObject(v val) bool { return v.start < v.end && t.line[v.start] == '{' }
