//go:build unix

package trail

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user plus system CPU time: on a loaded
// machine it measures the work, where wall time measures the queue.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
