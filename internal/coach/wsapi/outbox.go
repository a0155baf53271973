package wsapi

import (
	"encoding/json"
	"slices"
	"sync"
)

// stateKeys are the server messages that carry a whole piece of state the
// client replaces when it receives one (its tree, a file's content, the
// dashboard, the Observer's status): a newer one makes an older one still
// waiting in a connection's queue worthless. Messages of one key replace
// each other; keyed by path, per file. Every other message is an event
// (acknowledgements, errors, answers, toasts, highlights that add up,
// session lifecycle) and is delivered exactly as sent.
var stateKeys = map[string]struct {
	key    string
	byPath bool // the key is per payload.path
}{
	TypeFSTree:                  {key: "tree"},
	TypeFSContent:               {key: "file", byPath: true}, // the latest content of an open file
	TypeEditorOpenFile:          {key: "file", byPath: true}, // the same reducer as fs:content
	TypeEditorDecorations:       {key: "decorations", byPath: true},
	TypeDashboardState:          {key: "dashboard:state"},
	TypeDashboardDreyfus:        {key: "dashboard:dreyfus"},
	TypeDashboardIssues:         {key: "dashboard:issues"}, // the list, or the error that replaces it
	TypeDashboardIssuesError:    {key: "dashboard:issues"},
	TypeDashboardMaterials:      {key: "dashboard:materials"},
	TypeDashboardMaterialsError: {key: "dashboard:materials"},
	TypeObserverStatus:          {key: "observer:status"},
	TypeSessionState:            {key: "session:state"},
	TypeCoachingIssueContext:    {key: "coaching:issue_context"},
}

// treeKey is the key of fs:tree and of the tree refresh placeholder.
const treeKey = "tree"

// stateKey returns the coalescing key of a message of type typ carrying
// payload, "" for an event.
func stateKey(typ string, payload json.RawMessage) string {
	k, ok := stateKeys[typ]
	if !ok {
		return ""
	}
	if !k.byPath {
		return k.key
	}
	var p struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(payload, &p) != nil {
		return ""
	}
	return k.key + "\x00" + p.Path
}

// outMsg is one encoded server message waiting in an [outbox].
type outMsg struct {
	key    string // stateKey; "" for an event
	update bool   // an fs:tree_update
	data   []byte // the encoded envelope; nil for the tree refresh placeholder
}

// outbox is one connection's queue of server messages, drained in order by
// its writer goroutine.
//
// Events are kept in order, at most limit of them. A state message
// (stateKey) replaces the one of the same key still waiting: the older is
// dropped and the newer goes to the back, so a client that reads slowly
// gets the latest state however many updates it missed, and the queue
// holds at most one message per key besides its events. fs:tree also drops
// the fs:tree_update messages waiting before it, which it includes.
//
// When events would pass limit and the hub can scan the tree (canRefresh),
// the waiting fs:tree_update messages fold into one tree refresh: a
// placeholder (data nil) the writer turns into fs:tree {reason: "refresh"}
// when it gets to it; tree updates arriving meanwhile are dropped, as the
// refresh, scanned later, includes them. Only when no room can be made is
// push refused: the hub then disconnects the client.
//
// outbox is safe for concurrent use.
type outbox struct {
	limit int
	ready chan struct{} // capacity 1: a message was added since the writer last looked

	mu      sync.Mutex
	msgs    []outMsg // guarded by mu; oldest first
	events  int      // guarded by mu; msgs with no key
	refresh bool     // guarded by mu; a tree refresh placeholder waits in msgs
}

func newOutbox(limit int) *outbox {
	return &outbox{limit: limit, ready: make(chan struct{}, 1)}
}

// push queues m and reports whether it could; false means the client is
// too far behind to keep.
func (b *outbox) push(m outMsg, canRefresh bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case m.update && b.refresh:
		return true // the waiting refresh will include it
	case m.key != "":
		b.dropLocked(func(o outMsg) bool { return o.key == m.key || (m.key == treeKey && o.update) })
		if m.key == treeKey {
			b.refresh = false
		}
	case b.events >= b.limit:
		if !canRefresh || (!m.update && !slices.ContainsFunc(b.msgs, func(o outMsg) bool { return o.update })) {
			return false
		}
		b.dropLocked(func(o outMsg) bool { return o.key == treeKey || o.update })
		b.msgs = append(b.msgs, outMsg{key: treeKey})
		b.refresh = true
		b.signal()
		if m.update {
			return true // folded into the refresh
		}
	}
	b.msgs = append(b.msgs, m)
	if m.key == "" {
		b.events++
	}
	b.signal()
	return true
}

// pop removes and returns the oldest message; ok is false when none waits.
func (b *outbox) pop() (m outMsg, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.msgs) == 0 {
		return outMsg{}, false
	}
	m = b.msgs[0]
	b.msgs = slices.Delete(b.msgs, 0, 1)
	if m.key == "" {
		b.events--
	}
	if m.key == treeKey && m.data == nil {
		b.refresh = false
	}
	return m, true
}

// dropLocked removes the waiting messages drop selects. b.mu must be held.
func (b *outbox) dropLocked(drop func(outMsg) bool) {
	b.msgs = slices.DeleteFunc(b.msgs, func(o outMsg) bool {
		if !drop(o) {
			return false
		}
		if o.key == "" {
			b.events--
		}
		return true
	})
}

// signal wakes the writer. b.mu must be held.
func (b *outbox) signal() {
	select {
	case b.ready <- struct{}{}:
	default:
	}
}
