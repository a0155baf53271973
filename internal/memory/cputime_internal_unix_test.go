//go:build unix

package memory

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user+system CPU time, so benchmarks can
// report CPU cost per operation on a machine shared with other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
