//go:build !unix

package trail

import "time"

// cpuTime is unknown here: benchmarks report wall time only.
func cpuTime() time.Duration { return 0 }
