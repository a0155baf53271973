//go:build unix

package hook

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// errPollTimeout is waitFD's error when the deadline passes first.
var errPollTimeout = errors.New("hook: deadline passed")

// errPollFailed is waitFD's error when poll(2) itself fails.
var errPollFailed = errors.New("hook: poll failed")

// cancelSlice bounds each poll(2) of waitFD under a cancellable context, so
// that a cancellation is noticed within it.
const cancelSlice = 20 * time.Millisecond

// waitFD waits with poll(2) until fd is ready for events (or in error, or
// at its end), the deadline passes (errPollTimeout) or ctx is done (its
// error). It bounds a wait on a blocking descriptor without a goroutine, a
// timer or the runtime's poller, which a process living a few milliseconds
// pays for.
func waitFD(ctx context.Context, fd int32, events int16, deadline time.Time) error {
	fds := []unix.PollFd{{Fd: fd, Events: events}}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return errPollTimeout
		}
		if ctx.Done() != nil {
			left = min(left, cancelSlice)
		}
		n, err := unix.Poll(fds, int((left+time.Millisecond-1)/time.Millisecond))
		switch {
		case errors.Is(err, unix.EINTR) || err == nil && n == 0:
			continue // the deadline and ctx are checked above
		case err != nil:
			return errPollFailed
		}
		return nil
	}
}
