package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/config"
)

// coachingVerdict is what the hooks make of the coaching session of a
// directory: whether the read-only guard holds, and when it does not
// although a session is still recorded, why it lifted.
type coachingVerdict struct {
	Enforce bool
	// Coaching is the session found (zero under PAIGE_MODE=coach/off or
	// when none is active).
	Coaching store.ProjectCoaching
	Found    bool
	// Lifted says why the guard no longer holds for a session still
	// marked active (it went idle); "" otherwise.
	Lifted string
}

// findProjectCoaching applies PAIGE_MODE, then looks for the session active
// in cwd and checks it against the idle limit (PAIGE_COACH_IDLE): a session
// idle for longer no longer holds the guard, whatever paige.db still says
// (the server ends it when it next looks; the hook only reads).
func findProjectCoaching(ctx context.Context, cfg config.Config, cwd string, now time.Time) (coachingVerdict, error) {
	switch cfg.Learn.Mode {
	case config.ModeCoach:
		return coachingVerdict{Enforce: true}, nil
	case config.ModeOff:
		return coachingVerdict{}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	c, ok, err := store.FindCoaching(ctx, cfg.DataDir, cwd)
	if err != nil || !ok {
		return coachingVerdict{}, err
	}
	v := coachingVerdict{Coaching: c, Found: true, Enforce: true}
	if idle := c.IdleFor(now); idle > cfg.Learn.CoachIdle {
		v.Enforce = false
		v.Lifted = fmt.Sprintf("Paige: the coaching session %s has been idle for %s (PAIGE_COACH_IDLE is %s), so it is over "+
			"and read-only mode is lifted; paige serve ends it and queues its wrap-up. Start a new one with /paige:coach.",
			sessionLabel(c), roundDuration(idle), cfg.Learn.CoachIdle)
	}
	return v, nil
}

// sessionLabel names a session for a person: its issue, else its id.
func sessionLabel(c store.ProjectCoaching) string {
	s := c.Session
	switch {
	case s.IssueNumber != nil && s.IssueTitle != "":
		return fmt.Sprintf("on #%d %q", *s.IssueNumber, s.IssueTitle)
	case s.IssueNumber != nil:
		return fmt.Sprintf("on #%d", *s.IssueNumber)
	case s.IssueTitle != "":
		return fmt.Sprintf("on %q", s.IssueTitle)
	}
	return s.ID
}

// roundDuration prints d to the minute (to the second under a minute).
func roundDuration(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Minute)
}

// howToFinish is the line every coaching message ends with.
const howToFinish = "To end coaching: /paige:finish in Claude Code, End session in the workbench, or `paige session end` in a terminal."
