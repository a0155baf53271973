package session

import (
	"time"

	"github.com/paige-dev/paige/internal/coach"
)

// Duration returns how long sess ran: until EndedAt, or zero while active.
func Duration(sess coach.Session) time.Duration {
	if sess.EndedAt == nil {
		return 0
	}
	return sess.EndedAt.Sub(sess.StartedAt)
}
