//go:build linux

package hook

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// getHealth is [getHealthNet] in system calls: a non-blocking socket
// connected to 127.0.0.1:port, the request written and the answer read
// until the server closes the connection, poll(2) waiting for each step
// until the deadline (timeout, or ctx's when earlier) or ctx's
// cancellation ([waitFD]). It needs no goroutine, timer or runtime poller:
// in the SessionStart hook's process, which lives a few milliseconds,
// package net's dial cost as much as the exchange itself.
func getHealth(ctx context.Context, port int, timeout time.Duration) (resp []byte, ok bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	c := rawConn{ctx: ctx, deadline: time.Now().Add(timeout)}
	if d, has := ctx.Deadline(); has && d.Before(c.deadline) {
		c.deadline = d
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	c.fd = fd
	if !c.connect(port) || !c.write([]byte(healthRequest(healthAddr(port)))) {
		return nil, false
	}
	return c.readAll(maxHealthResponse)
}

// rawConn is getHealth's socket and what bounds its waits.
type rawConn struct {
	ctx      context.Context
	fd       int
	deadline time.Time
}

func (c *rawConn) wait(events int16) bool {
	return waitFD(c.ctx, int32(c.fd), events, c.deadline) == nil
}

// connect connects c to 127.0.0.1:port and reports whether it is
// connected to a listener there. Like package net, it waits for a
// connection in progress and counts a connection to itself (nothing
// listens on port and the kernel chose port as the local one) as none.
func (c *rawConn) connect(port int) bool {
	err := unix.Connect(c.fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
	for {
		switch {
		case err == nil || errors.Is(err, unix.EISCONN):
			local, err := unix.Getsockname(c.fd)
			l, ok := local.(*unix.SockaddrInet4)
			return err == nil && ok && l.Port != port
		case errors.Is(err, unix.EINPROGRESS) || errors.Is(err, unix.EALREADY) || errors.Is(err, unix.EINTR):
			if !c.wait(unix.POLLOUT) {
				return false
			}
			soErr, gerr := unix.GetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_ERROR)
			if gerr != nil {
				return false
			}
			err = nil
			if soErr != 0 {
				err = unix.Errno(soErr)
			} else if _, perr := unix.Getpeername(c.fd); perr != nil {
				// Writable but not connected yet (package net checks
				// with getpeername too): wait again.
				err = unix.EINPROGRESS
			}
		default:
			return false
		}
	}
}

// write writes all of b to c.
func (c *rawConn) write(b []byte) bool {
	for len(b) > 0 {
		n, err := unix.Write(c.fd, b)
		switch {
		case err == nil:
			b = b[n:]
		case errors.Is(err, unix.EAGAIN):
			if !c.wait(unix.POLLOUT) {
				return false
			}
		case !errors.Is(err, unix.EINTR):
			return false
		}
	}
	return true
}

// readAll reads c until the peer closes it; ok is false on an error, a
// missed deadline, or more than max bytes.
func (c *rawConn) readAll(max int) (resp []byte, ok bool) {
	buf := make([]byte, 0, 1024)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(c.fd, buf[len(buf):cap(buf)])
		switch {
		case err == nil && n == 0:
			return buf, true
		case err == nil:
			if buf = buf[:len(buf)+n]; len(buf) > max {
				return nil, false
			}
		case errors.Is(err, unix.EAGAIN):
			if !c.wait(unix.POLLIN) {
				return nil, false
			}
		case !errors.Is(err, unix.EINTR):
			return nil, false
		}
	}
}
