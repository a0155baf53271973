package wsapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Hub tracks the connected editor clients and delivers server messages.
//
// # Design
//
// Every connection owns a send queue (an outbox) drained by its own writer
// goroutine. [Hub.Broadcast] encodes a message once and offers the bytes to
// each queue without blocking, so a slow client never holds up the others.
// A client that reads slowly gets coalesced state instead of a backlog: a
// state message (the tree, a file's content, the dashboard, the Observer's
// status; see stateKeys) replaces the one of the same kind still waiting,
// and a run of fs:tree_update that would overflow the queue becomes one
// fs:tree refresh, scanned when the writer gets to it (the tree comes from
// [ForwardTreeUpdates]). Events (acknowledgements, errors, answers) are
// never dropped: a client with more than the queue's length of them
// waiting, or that takes no data for writeTimeout, is disconnected as a
// last resort (1008 "send queue full", or "write failed"), with a warning
// logged. The workbench reconnects and resyncs by itself
// (connection:hello, session:get_state, fs:get_tree, dashboard:request).
//
// Hub is safe for concurrent use. Its zero value is not usable: use [NewHub].
type Hub struct {
	log       *slog.Logger
	queueSize int
	now       func() time.Time

	// writeTimeout bounds one frame write to a client: a client that
	// takes no data for that long is disconnected.
	writeTimeout time.Duration

	mu     sync.Mutex
	conns  map[*Conn]struct{}        // guarded by mu
	closed bool                      // guarded by mu
	tree   func() (*TreeNode, error) // guarded by mu; scans the tree for a refresh, nil: none
	nextID atomic.Int64
	wg     sync.WaitGroup // writer goroutines
}

// DefaultQueueSize is how many events (messages other than coalesced
// state) may wait in one connection's send queue.
const DefaultQueueSize = 256

// defaultWriteTimeout bounds one frame write to a client.
const defaultWriteTimeout = 5 * time.Second

// closeTimeout bounds the close handshake with one client.
const closeTimeout = time.Second

// NewHub returns an empty hub. A nil log discards; queueSize, the events
// that may wait for one client, <= 0 means [DefaultQueueSize].
func NewHub(log *slog.Logger, queueSize int) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if queueSize <= 0 {
		queueSize = DefaultQueueSize
	}
	return &Hub{log: log, queueSize: queueSize, now: time.Now, writeTimeout: defaultWriteTimeout,
		conns: map[*Conn]struct{}{}}
}

// Conn is one connected client: its socket, send queue and the metadata
// from connection:hello (D25).
type Conn struct {
	ID          string
	ConnectedAt time.Time
	ws          *websocket.Conn
	box         *outbox
	done        chan struct{}
	closeOnce   sync.Once

	mu       sync.Mutex
	hello    *ConnectionHello // guarded by mu
	terminal TerminalSize     // guarded by mu

	termStatus *TerminalStatus // set before the read loop starts; read only by it
}

// Meta returns the connection's hello (nil before connection:hello) and last
// reported terminal size.
func (c *Conn) Meta() (*ConnectionHello, TerminalSize) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hello, c.terminal
}

func (c *Conn) setHello(h ConnectionHello) {
	c.mu.Lock()
	c.hello = &h
	c.mu.Unlock()
}

func (c *Conn) setTerminal(t TerminalSize) {
	c.mu.Lock()
	c.terminal = t
	c.mu.Unlock()
}

// add registers ws and starts its writer. It returns nil when the hub is
// closed (shutdown has begun); the caller then closes ws.
func (h *Hub) add(ws *websocket.Conn) *Conn {
	c := &Conn{
		ID:          "ws-" + itoa(h.nextID.Add(1)),
		ConnectedAt: h.now(),
		ws:          ws,
		box:         newOutbox(h.queueSize),
		done:        make(chan struct{}),
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.conns[c] = struct{}{}
	h.wg.Add(1)
	go h.writer(c)
	h.log.Info("websocket connected", "conn", c.ID, "clients", len(h.conns))
	return c
}

// remove forgets c and closes it with code and reason (EC-03, scenario
// 5.10). The close handshake runs in the background so that a broadcaster
// never waits for a slow peer; the returned channel is closed when it is done.
func (h *Hub) remove(c *Conn, code websocket.StatusCode, reason string) <-chan struct{} {
	h.mu.Lock()
	_, ok := h.conns[c]
	delete(h.conns, c)
	n := len(h.conns)
	h.mu.Unlock()
	closed := make(chan struct{})
	first := false
	c.closeOnce.Do(func() {
		first = true
		close(c.done)
		go func() {
			defer close(closed)
			handshake := make(chan struct{})
			go func() { _ = c.ws.Close(code, reason); close(handshake) }()
			select { // a peer that does not answer the close frame is cut off
			case <-handshake:
			case <-time.After(closeTimeout):
				_ = c.ws.CloseNow()
			}
		}()
	})
	if !first {
		close(closed)
	}
	if ok {
		h.log.Info("websocket disconnected", "conn", c.ID, "reason", reason, "clients", n)
	}
	return closed
}

func (h *Hub) writer(c *Conn) {
	defer h.wg.Done()
	for {
		select {
		case <-c.done:
			return
		case <-c.box.ready:
		}
		for m, ok := c.box.pop(); ok; m, ok = c.box.pop() {
			b := m.data
			if b == nil { // the tree refresh placeholder
				if b = h.treeRefresh(); b == nil {
					continue
				}
			}
			if !h.write(c, b) {
				return
			}
		}
	}
}

// write writes one message to c and reports whether c is still usable.
func (h *Hub) write(c *Conn, b []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), h.writeTimeout)
	defer cancel()
	err := c.ws.Write(ctx, websocket.MessageText, b)
	if err == nil {
		return true
	}
	if errors.Is(err, context.DeadlineExceeded) {
		h.log.Warn("websocket client took no data; disconnecting", "conn", c.ID, "waited", h.writeTimeout)
	}
	h.remove(c, websocket.StatusInternalError, "write failed")
	return false
}

// treeRefresh returns the encoded fs:tree {reason: "refresh"} of the tree
// as it is now, nil when it cannot be scanned.
func (h *Hub) treeRefresh() []byte {
	h.mu.Lock()
	tree := h.tree
	h.mu.Unlock()
	root, err := tree()
	if err != nil {
		h.log.Error("cannot scan project tree for a slow client's refresh", "err", err)
		return nil
	}
	m, ok := h.message(h.envelope(TypeFSTree, FSTree{Root: root, Reason: TreeReasonRefresh}, ""))
	if !ok {
		return nil
	}
	return m.data
}

// setTree gives the hub the project tree's scan, for the tree refresh of a
// slow client (see [Hub]). ForwardTreeUpdates sets it.
func (h *Hub) setTree(tree func() (*TreeNode, error)) {
	h.mu.Lock()
	h.tree = tree
	h.mu.Unlock()
}

// Len returns the number of connected clients.
func (h *Hub) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// Broadcast sends a message of type typ with payload to every connected
// client (FR-058); with none connected it does nothing (EC-24). It never
// blocks on a client.
func (h *Hub) Broadcast(typ string, payload any) {
	h.BroadcastEnvelope(h.envelope(typ, payload, ""))
}

// BroadcastEnvelope sends env to every connected client. A state message
// replaces the one of its kind a slow client has not yet been sent (see
// [Hub]).
func (h *Hub) BroadcastEnvelope(env Envelope) {
	m, ok := h.message(env)
	if !ok {
		return
	}
	h.mu.Lock()
	targets := make([]*Conn, 0, len(h.conns))
	for c := range h.conns {
		targets = append(targets, c)
	}
	canRefresh := h.tree != nil
	h.mu.Unlock()
	for _, c := range targets {
		h.enqueue(c, m, canRefresh)
	}
}

// Send queues a message for c alone (replies such as connection:init and
// connection:error).
func (h *Hub) Send(c *Conn, env Envelope) {
	m, ok := h.message(env)
	if !ok {
		return
	}
	h.mu.Lock()
	canRefresh := h.tree != nil
	h.mu.Unlock()
	h.enqueue(c, m, canRefresh)
}

// enqueue offers m to c's queue; a client too far behind to keep is
// disconnected.
func (h *Hub) enqueue(c *Conn, m outMsg, canRefresh bool) {
	select {
	case <-c.done:
		return
	default:
	}
	if !c.box.push(m, canRefresh) {
		h.log.Warn("websocket client too slow; disconnecting", "conn", c.ID, "events waiting", h.queueSize)
		h.remove(c, websocket.StatusPolicyViolation, "send queue full")
	}
}

func (h *Hub) envelope(typ string, payload any, id string) Envelope {
	env, err := NewEnvelope(typ, payload, h.now())
	if err != nil {
		h.log.Error("cannot encode websocket message", "type", typ, "err", err)
		env, _ = NewEnvelope(TypeConnectionError, ConnectionError{Code: CodeInternal, Message: "internal error"}, h.now())
	}
	env.ID = id
	return env
}

// message encodes env for the send queues.
func (h *Hub) message(env Envelope) (outMsg, bool) {
	b, err := json.Marshal(env)
	if err != nil {
		h.log.Error("cannot encode websocket envelope", "type", env.Type, "err", err)
		return outMsg{}, false
	}
	return outMsg{key: stateKey(env.Type, env.Payload), update: env.Type == TypeFSTreeUpdate, data: b}, true
}

// Close disconnects every client with "going away" and refuses new ones. It
// waits for the writer goroutines to finish and is safe to call twice.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	conns := make([]*Conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	waits := make([]<-chan struct{}, 0, len(conns))
	for _, c := range conns {
		waits = append(waits, h.remove(c, websocket.StatusGoingAway, "server shutting down"))
	}
	for _, w := range waits {
		<-w
	}
	h.wg.Wait()
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
