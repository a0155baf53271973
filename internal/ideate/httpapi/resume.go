package httpapi

import (
	"context"
	"fmt"

	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/core"
)

// resumePage is how many sessions ResumeInterrupted lists per query.
const resumePage = 100

// ResumeInterrupted starts, in the background, the run of every session the
// process stopping interrupted: its run was running when the process died
// ([core.RunRunning]), its last turn was saved within [Options.ResumeWindow],
// it is not cancelled nor paused for the user, and its saved history waits
// for a model call ([agent.Due]). Nothing else is spent without the user: a
// run that failed (a refusal, 429, 529, ...) or was cancelled waits for
// the user to resume it. Resumed runs' events are kept like any run's, so a
// client opening the session follows the run. It returns the number of
// runs started; with no model configured it starts none (each would only
// fail). Call it once after [New], before serving.
func (a *API) ResumeInterrupted(ctx context.Context) (int, error) {
	if a.runner.Offline() || a.o.ResumeWindow < 0 {
		return 0, nil
	}
	since := a.o.Now().Add(-a.o.ResumeWindow)
	var ids []string
	for _, st := range []core.SessionStatus{core.StatusCreated, core.StatusActive, core.StatusResolved} {
		for off := 0; ; off += resumePage {
			ss, err := a.repo.ListSessions(ctx, core.ListOptions{Limit: resumePage, Offset: off, Status: st})
			if err != nil {
				return 0, fmt.Errorf("list %s sessions: %w", st, err)
			}
			for _, s := range ss {
				if s.State.Pending == nil && s.State.Run == core.RunRunning && !s.State.RunAt.Before(since) {
					ids = append(ids, s.ID)
				}
			}
			if len(ss) < resumePage {
				break
			}
		}
	}
	n := 0
	for _, id := range ids {
		s, err := a.repo.GetSession(ctx, id)
		if err != nil {
			a.log.Error("ghostpath: load session to resume", "session_id", id, "err", err)
			continue
		}
		if !agent.Due(&s) {
			continue
		}
		if run, fresh := a.runs.reserve(id); fresh {
			a.runs.launch(id, run, a.runSession(id))
			n++
		}
	}
	if n > 0 {
		a.log.Info("ghostpath: resumed interrupted runs", "runs", n)
	}
	return n, nil
}
