//go:build !unix

package pipeline

import "time"

// cpuTime is unavailable here; the CPU metric then reads 0.
func cpuTime() time.Duration { return 0 }
