//go:build linux

package proc

import (
	"time"

	"golang.org/x/sys/unix"
)

// CPUExact returns process pid's CPU time so far in nanoseconds, and
// whether it could be read: the scheduler's run time (sum_exec_runtime)
// of all its threads, live and exited, brought up to date for a thread
// running now. It reads the process's CPU-time clock (clock_gettime on
// the clock id of clock_getcpuclockid(pid)), which Linux lets any
// process read. /proc/<pid>/schedstat has the same counter in
// nanoseconds but for the main thread only; /proc/<pid>/task/*/schedstat
// misses exited threads; [CPU] counts in ticks of 10 ms.
func CPUExact(pid int) (time.Duration, bool) {
	if pid <= 0 || pid > maxPID {
		return 0, false
	}
	var ts unix.Timespec
	if err := unix.ClockGettime(processCPUClock(pid), &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// maxPID is Linux's largest pid (PID_MAX_LIMIT, 2^22); a clock id holds
// pids up to 2^28, so every real pid has one.
const maxPID = 1 << 22

// processCPUClock is the clock id of process pid's CPU-time clock, as
// glibc's clock_getcpuclockid builds it: ^pid << 3 | CPUCLOCK_SCHED (2).
func processCPUClock(pid int) int32 {
	return int32(^pid<<3 | 2)
}
