package wsapi

import (
	"bufio"
	"net"
	"net/http"
	"sync"
)

// burstSize is the read buffer a connection borrows while its client sends
// faster than the server reads: one read system call then takes about 25
// frames of 2.6 KB instead of one 4 KiB piece (issue 15: the read call was
// about a sixth of the server's CPU per buffer:update).
const burstSize = 64 << 10

// burstBuffers are the borrowed read buffers, shared by every connection.
var burstBuffers = sync.Pool{New: func() any { return new([burstSize]byte) }}

// burstConn is a hijacked connection whose reads switch to a borrowed
// burstSize buffer while data keeps arriving, and give it back as soon as
// the socket has been drained: an idle connection, blocked in its read,
// holds no more memory than before (the 4 KiB reader net/http hands over at
// the hijack). Reads happen on one goroutine (the library's read lock);
// the other methods are the connection's own.
type burstConn struct {
	net.Conn
	buf  *[burstSize]byte // nil while not borrowed
	r, w int              // unread bytes are buf[r:w]
	keep bool             // the last fill filled buf: more is probably waiting
	err  error            // the last fill's error, returned once buf is empty
}

// Read reads into p from the borrowed buffer, or from the connection.
func (c *burstConn) Read(p []byte) (int, error) {
	if c.r == c.w {
		if err := c.err; err != nil {
			c.err = nil // returned once, as the connection itself would
			return 0, err
		}
		if c.buf == nil {
			n, err := c.Conn.Read(p)
			if n == len(p) && n > 0 && err == nil {
				// p is full: the client is probably sending faster than we
				// read, so read in bursts from now on.
				c.buf = burstBuffers.Get().(*[burstSize]byte)
			}
			return n, err
		}
		n, err := c.Conn.Read(c.buf[:])
		if n == 0 {
			c.release()
			return 0, err
		}
		c.r, c.w, c.err, c.keep = 0, n, err, n == burstSize && err == nil
	}
	n := copy(p, c.buf[c.r:c.w])
	c.r += n
	if c.r == c.w && !c.keep {
		c.release()
	}
	return n, nil
}

// release gives the borrowed buffer back.
func (c *burstConn) release() {
	burstBuffers.Put(c.buf)
	c.buf, c.r, c.w, c.keep = nil, 0, 0, false
}

// burstHijacker is the ResponseWriter handed to websocket.Accept: its
// Hijack returns the connection as a [burstConn]. Everything else is the
// wrapped writer's.
type burstHijacker struct{ http.ResponseWriter }

// Hijack hijacks the wrapped writer's connection (following Unwrap, as
// http.ResponseController does).
func (h burstHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	return &burstConn{Conn: conn}, brw, nil
}

// Unwrap returns the wrapped writer.
func (h burstHijacker) Unwrap() http.ResponseWriter { return h.ResponseWriter }
