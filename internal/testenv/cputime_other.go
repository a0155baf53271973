//go:build !unix

package testenv

import "time"

// CPUTime is unknown on this platform: it returns 0, so CPU metrics read 0.
func CPUTime() time.Duration { return 0 }
