//go:build unix

package hook

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// pollReader reads a file, waiting for each read with poll(2) until
// deadline (see [waitFD]).
type pollReader struct {
	f        *os.File
	fd       int32 // f's descriptor
	deadline time.Time
	read     bool // whether a read has returned bytes
}

func (r *pollReader) Read(p []byte) (int, error) {
	if err := waitFD(context.Background(), r.fd, unix.POLLIN, r.deadline); err != nil {
		return 0, err
	}
	// Readable, at its end, or in error: the read does not block and
	// reports which.
	n, err := r.f.Read(p)
	r.read = r.read || n > 0
	return n, err
}

// readFileWithin is [ReadInputWithin] for a file, with poll(2) bounding the
// wait; ok is false when poll cannot be used on f, before anything was read
// (the caller then reads as for any reader).
func readFileWithin(f *os.File, timeout time.Duration) (in Input, ok bool, err error) {
	r := &pollReader{f: f, fd: -1, deadline: time.Now().Add(timeout)}
	// Not f.Fd(), which would switch a non-blocking descriptor (shared with
	// the parent) to blocking.
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { r.fd = int32(fd) })
	}
	if r.fd < 0 {
		return Input{}, false, nil
	}
	in, err = ReadInput(r)
	switch {
	case errors.Is(err, errPollTimeout):
		return Input{}, true, &SilentError{Timeout: timeout}
	case errors.Is(err, errPollFailed) && !r.read:
		return Input{}, false, nil
	}
	return in, true, err
}
