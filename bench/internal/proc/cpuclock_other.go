//go:build !linux

package proc

import "time"

// CPUExact is [CPU] where there is no per-process CPU-time clock to read
// (only Linux is measured).
func CPUExact(pid int) (time.Duration, bool) { return CPU(pid) }
