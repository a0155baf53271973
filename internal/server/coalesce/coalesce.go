// Package coalesce lets an HTTP handler have net/http send a whole
// response — status line, headers and body — in one write on its
// connection.
//
// net/http buffers a response 4 KiB at a time: a larger one leaves in two
// or more writes, each a trip through the TCP stack and, on loopback, a
// wake-up of the client, which then finds half an answer. Paige's
// paige_get_buffer answer carries the buffer twice (5.5 KB for a 2.5 KB
// buffer), so every call cost two writes; on a 2-core machine they were a
// third of the server's CPU per call.
//
// [Listener] wraps the server's listener; [ConnContext], set as the
// http.Server's ConnContext, lets handlers reach their connection; and
// [Response], called by a handler that knows its body's length (it set
// Content-Length) before it writes, makes the connection hold what
// net/http writes until the header and that many body bytes are there,
// then write them at once. A response whose header does not announce
// that Content-Length (a stream, say) is not held past its header; every
// other response, and every byte of a connection after a hijack, passes
// straight through.
//
// What is held leaves at the latest when net/http is done with the
// response: Close, CloseWrite, SetWriteDeadline (which net/http's server
// calls after every response, before it reads the next request) and
// SetDeadline first write what is held. So a response that ends short of
// the announced length (a handler that failed half way) leaves as it would
// have without this package, only later within the same request. Reads do
// not: net/http's background read of the connection may start while a
// response is held. The bytes written, and their order, are unchanged.
package coalesce

import (
	"bytes"
	"context"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Limits on what a connection holds for one response.
const (
	// smallResponse is a body length below which Response does nothing:
	// with its header, such a response fits net/http's 4 KiB buffer and
	// leaves in one write anyway.
	smallResponse = 3 << 10
	// maxBody is the largest body Response holds; larger ones pass through.
	maxBody = 1 << 20
	// maxHeader bounds where the header's end is looked for.
	maxHeader = 64 << 10
	// keptBuffer is the largest hold buffer a connection keeps between
	// responses.
	keptBuffer = 16 << 10
)

// Listener returns l with each accepted connection wrapped so that
// [Response] can coalesce its writes.
func Listener(l net.Listener) net.Listener { return listener{l} }

type listener struct{ net.Listener }

// Accept waits for and returns the next connection, wrapped.
func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c}, nil
}

// connKey is the context key of a request's connection.
type connKey struct{}

// ConnContext returns ctx carrying c when c came from a [Listener], for
// http.Server's ConnContext.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*conn); ok {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

// Response makes the next response written on the connection of ctx (a
// request's context) leave in one write once its header and bodyLen body
// bytes have been written. Call it just before writing a body of exactly
// bodyLen bytes (the response's Content-Length) in the request's handler.
// It does nothing for a request not served through a [Listener], for a
// small body (which leaves in one write anyway) and for a very large one.
func Response(ctx context.Context, bodyLen int) {
	if bodyLen < smallResponse || bodyLen > maxBody {
		return
	}
	if c, ok := ctx.Value(connKey{}).(*conn); ok {
		c.arm(bodyLen)
	}
}

// conn holds the writes of an armed response.
//
// The goroutine serving the connection arms it and writes; net/http's
// background read may call Read concurrently. held is set only while a
// response is armed, so an unarmed connection's Read and Write take no
// lock.
type conn struct {
	net.Conn
	held atomic.Bool // a response is armed; set and cleared under mu
	mu   sync.Mutex
	body int    // guarded by mu: the armed response's body length
	head int    // guarded by mu: the header's length in buf, 0 until its end is seen
	buf  []byte // guarded by mu: what is held
}

// arm starts holding a response of bodyLen body bytes. What an earlier
// armed response still held leaves first.
func (c *conn) arm(bodyLen int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held.Load() {
		_ = c.flushLocked()
	}
	c.body, c.head = bodyLen, 0
	c.held.Store(true)
}

// Write holds p while a response is armed and not complete; the write
// that completes it writes everything held.
func (c *conn) Write(p []byte) (int, error) {
	if !c.held.Load() {
		return c.Conn.Write(p)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.held.Load() { // flushed by a Read meanwhile
		return c.Conn.Write(p)
	}
	c.buf = append(c.buf, p...)
	if c.head == 0 {
		i := bytes.Index(c.buf, []byte("\r\n\r\n"))
		switch {
		case i >= 0 && announces(c.buf[:i+2], c.body):
			c.head = i + 4
		case i >= 0 || len(c.buf) > maxHeader: // not the response armed for
			return c.written(p, c.flushLocked())
		}
	}
	if c.head > 0 && len(c.buf) >= c.head+c.body {
		return c.written(p, c.flushLocked())
	}
	return len(p), nil
}

// announces reports whether a response header (its lines, each ending in
// CRLF) says Content-Length n, as net/http writes it.
func announces(header []byte, n int) bool {
	var line [40]byte
	want := strconv.AppendInt(append(line[:0], "\r\nContent-Length: "...), int64(n), 10)
	return bytes.Contains(header, append(want, '\r', '\n'))
}

// written is Write's result once the held bytes, p's last, were written.
func (c *conn) written(p []byte, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// flushLocked writes what is held and disarms. c.mu must be held.
func (c *conn) flushLocked() error {
	c.held.Store(false)
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.Conn.Write(c.buf)
	if cap(c.buf) > keptBuffer {
		c.buf = nil
	} else {
		c.buf = c.buf[:0]
	}
	return err
}

// flush writes what is held, if anything.
func (c *conn) flush() error {
	if !c.held.Load() {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.held.Load() {
		return nil
	}
	return c.flushLocked()
}

// SetWriteDeadline writes what is held, then sets the deadline. net/http
// calls it once a response is finished, before it reads the next request,
// so a response armed with more body than it has (a caller's mistake) is
// not held while the server waits for its client.
func (c *conn) SetWriteDeadline(t time.Time) error {
	if err := c.flush(); err != nil {
		return err
	}
	return c.Conn.SetWriteDeadline(t)
}

// SetDeadline writes what is held, then sets both deadlines.
func (c *conn) SetDeadline(t time.Time) error {
	if err := c.flush(); err != nil {
		return err
	}
	return c.Conn.SetDeadline(t)
}

// Close writes what is held, then closes the connection.
func (c *conn) Close() error {
	err := c.flush()
	if cerr := c.Conn.Close(); cerr != nil {
		return cerr
	}
	return err
}

// CloseWrite writes what is held, then shuts down the writing side when
// the connection can (net/http uses it before closing a connection whose
// request body it did not read).
func (c *conn) CloseWrite() error {
	if err := c.flush(); err != nil {
		return err
	}
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom writes what is held, then copies r to the connection as the
// wrapped connection does (sendfile or splice for a TCP connection), so
// net/http's response.ReadFrom keeps its fast path.
func (c *conn) ReadFrom(r io.Reader) (int64, error) {
	if err := c.flush(); err != nil {
		return 0, err
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}
