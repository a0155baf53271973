//go:build !linux

package hook

import (
	"context"
	"time"
)

// getHealth is [getHealthNet] outside Linux.
func getHealth(ctx context.Context, port int, timeout time.Duration) (resp []byte, ok bool) {
	return getHealthNet(ctx, port, timeout)
}
