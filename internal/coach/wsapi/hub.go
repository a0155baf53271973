package wsapi

import (
	"context"
	"encoding/json"
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
// Every connection owns a buffered send queue drained by its own writer
// goroutine. [Hub.Broadcast] encodes a message once and offers the bytes to
// each queue without blocking; a client whose queue is full is too slow to
// keep up and is disconnected (close code 1008, "send queue full") rather
// than allowed to hold up everyone else or to silently miss state. The
// client reconnects and gets a fresh connection:init and fs:tree.
//
// Hub is safe for concurrent use. Its zero value is not usable: use [NewHub].
type Hub struct {
	log       *slog.Logger
	queueSize int
	now       func() time.Time

	mu     sync.Mutex
	conns  map[*Conn]struct{} // guarded by mu
	closed bool               // guarded by mu
	nextID atomic.Int64
	wg     sync.WaitGroup // writer goroutines
}

// DefaultQueueSize is the per-connection send queue length.
const DefaultQueueSize = 256

// writeTimeout bounds one frame write to a client.
const writeTimeout = 5 * time.Second

// closeTimeout bounds the close handshake with one client.
const closeTimeout = time.Second

// NewHub returns an empty hub. A nil log discards; queueSize <= 0 means
// [DefaultQueueSize].
func NewHub(log *slog.Logger, queueSize int) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if queueSize <= 0 {
		queueSize = DefaultQueueSize
	}
	return &Hub{log: log, queueSize: queueSize, now: time.Now, conns: map[*Conn]struct{}{}}
}

// Conn is one connected client: its socket, send queue and the metadata
// from connection:hello (D25).
type Conn struct {
	ID          string
	ConnectedAt time.Time
	ws          *websocket.Conn
	send        chan []byte
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
		send:        make(chan []byte, h.queueSize),
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
		case b := <-c.send:
			ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
			err := c.ws.Write(ctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				h.remove(c, websocket.StatusInternalError, "write failed")
				return
			}
		}
	}
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

// BroadcastEnvelope sends env to every connected client.
func (h *Hub) BroadcastEnvelope(env Envelope) {
	b, ok := h.encode(env)
	if !ok {
		return
	}
	h.mu.Lock()
	targets := make([]*Conn, 0, len(h.conns))
	for c := range h.conns {
		targets = append(targets, c)
	}
	h.mu.Unlock()
	for _, c := range targets {
		h.enqueue(c, b)
	}
}

// Send queues a message for c alone (replies such as connection:init and
// connection:error).
func (h *Hub) Send(c *Conn, env Envelope) {
	if b, ok := h.encode(env); ok {
		h.enqueue(c, b)
	}
}

func (h *Hub) enqueue(c *Conn, b []byte) {
	select {
	case <-c.done:
	case c.send <- b:
	default:
		h.log.Warn("websocket client too slow; disconnecting", "conn", c.ID)
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

func (h *Hub) encode(env Envelope) ([]byte, bool) {
	b, err := json.Marshal(env)
	if err != nil {
		h.log.Error("cannot encode websocket envelope", "type", env.Type, "err", err)
		return nil, false
	}
	return b, true
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
