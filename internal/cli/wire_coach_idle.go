package cli

import (
	"context"
	"log/slog"
	"time"

	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/store"
)

// maxIdleCheck is how often, at most, the server looks for an idle
// coaching session; shorter idle limits are checked twice per limit.
const maxIdleCheck = time.Minute

// endIdleSessions ends the active coaching session once it has been idle
// (no action logged, see store.ProjectCoaching.LastActivity) for longer
// than limit (PAIGE_COACH_IDLE): at start, then on a ticker until
// shutdown. Ending it logs session_ended, so its wrap-up runs as for any
// ended session (at once with a model, else pending). The hooks lift the
// read-only guard on the same rule without waiting for this.
func endIdleSessions(a *app, sess *session.Service, limit time.Duration, log *slog.Logger) {
	every := min(limit/2, maxIdleCheck)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.onClose("idle sessions", func(context.Context) error {
		cancel()
		<-done
		return nil
	})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			endIfIdle(ctx, a.cfg.DataDir, sess, limit, log)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// endIfIdle ends the active session when it is idle for longer than limit.
func endIfIdle(ctx context.Context, dataDir string, sess *session.Service, limit time.Duration, log *slog.Logger) {
	active, ok := sess.Active()
	if !ok {
		return
	}
	c, found, err := store.FindCoaching(ctx, dataDir, active.ProjectDir)
	if err != nil || !found || c.Session.ID != active.ID {
		return
	}
	idle := c.IdleFor(time.Now())
	if idle <= limit {
		return
	}
	if _, err := sess.End(ctx); err != nil {
		log.Warn("ending an idle coaching session failed", "session", active.ID, "err", err)
		return
	}
	log.Info("idle coaching session ended", "session", active.ID, "idle", roundDuration(idle).String(), "limit", limit.String())
}
