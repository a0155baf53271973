package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/paige-dev/paige/internal/config"
)

// checkCoachingSession is doctor's "coaching" line: the session active in
// the current directory, its age and idle time. An active session is not
// a fault (✓); one past its idle limit is (✗), since its wrap-up waits for
// paige serve.
func checkCoachingSession(ctx context.Context, cfg config.Config) check {
	c := check{name: "coaching", ok: true}
	dir, err := os.Getwd()
	if err != nil {
		c.detail = "cannot tell the current directory: " + err.Error()
		return c
	}
	cfg.Learn.Mode = config.ModeAuto
	now := time.Now()
	v, err := findProjectCoaching(ctx, cfg, dir, now)
	switch {
	case err != nil:
		c.ok, c.detail = false, "cannot read the coaching sessions: "+err.Error()
		c.fix = "see the database line above"
	case !v.Found:
		c.detail = "no coaching session active in " + dir
	default:
		s := v.Coaching
		c.detail = fmt.Sprintf("session %s active for %s, idle %s (limit %s); Claude Code is read-only in %s",
			sessionLabel(s), roundDuration(now.Sub(s.Session.StartedAt)), roundDuration(s.IdleFor(now)), cfg.Learn.CoachIdle, s.Session.ProjectDir)
		c.fix = "end it with 'paige session end' (or /paige:finish in Claude Code)"
		if v.Lifted != "" {
			c.ok = false
			c.detail = fmt.Sprintf("session %s is past its idle limit (idle %s, limit %s): the guard no longer holds, its wrap-up waits for paige serve",
				sessionLabel(s), roundDuration(s.IdleFor(now)), cfg.Learn.CoachIdle)
		}
	}
	return c
}
