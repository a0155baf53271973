package mcphttp

import (
	"sync"
	"unsafe"
)

// minCachedText is the shortest text whose encoding escapes remembers;
// shorter ones are encoded each time, which is about as cheap.
const minCachedText = 1024

// escapes remembers the JSON string encodings of the last few long texts
// the direct path wrote, by the identity of the string (its data pointer
// and length): a tool that answers the same string again — as
// paige_get_buffer does for a buffer that has not changed — has it copied
// rather than encoded. An entry keeps its string alive, so a pointer it
// holds cannot be reused for other bytes. It is safe for concurrent use.
type escapes struct {
	mu   sync.Mutex
	ring [8]escaped // guarded by mu
	next int        // the entry replaced next; guarded by mu
}

type escaped struct {
	s string
	b []byte // appendString(nil, s); immutable
}

// append appends s as a JSON string, as appendString does.
func (e *escapes) append(dst []byte, s string) []byte {
	if len(s) < minCachedText {
		return appendString(dst, s)
	}
	p := unsafe.StringData(s)
	e.mu.Lock()
	for _, x := range e.ring {
		if len(x.s) == len(s) && unsafe.StringData(x.s) == p {
			e.mu.Unlock()
			return append(dst, x.b...)
		}
	}
	e.mu.Unlock()
	b := appendString(nil, s)
	e.mu.Lock()
	e.ring[e.next] = escaped{s: s, b: b}
	e.next = (e.next + 1) % len(e.ring)
	e.mu.Unlock()
	return append(dst, b...)
}
