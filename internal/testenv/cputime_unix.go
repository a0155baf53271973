//go:build unix

package testenv

import (
	"syscall"
	"time"
)

// CPUTime returns the process's user plus system CPU time so far.
// Benchmarks report CPU per operation with it: on a machine shared with
// other work, wall time measures the queue, CPU time the work.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
