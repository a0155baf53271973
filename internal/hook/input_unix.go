//go:build unix

package hook

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// errPollTimeout is pollReader's error when no byte came before the deadline.
var errPollTimeout = errors.New("hook input: deadline passed")

// errPollFailed is pollReader's error when poll(2) itself fails.
var errPollFailed = errors.New("hook input: poll failed")

// pollReader reads a file, waiting for each read with poll(2) until
// deadline: it bounds a blocking read without a goroutine, a timer or the
// runtime's poller, which a process living a few milliseconds pays for.
type pollReader struct {
	f        *os.File
	fd       int32 // f's descriptor
	deadline time.Time
	read     bool // whether a read has returned bytes
}

func (r *pollReader) Read(p []byte) (int, error) {
	fds := []unix.PollFd{{Fd: r.fd, Events: unix.POLLIN}}
	for {
		left := time.Until(r.deadline)
		if left <= 0 {
			return 0, errPollTimeout
		}
		n, err := unix.Poll(fds, int((left+time.Millisecond-1)/time.Millisecond))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, errPollFailed
		}
		if n == 0 {
			continue // the deadline is checked above
		}
		// Readable, at its end, or in error: the read does not block and
		// reports which.
		n, err = r.f.Read(p)
		r.read = r.read || n > 0
		return n, err
	}
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
