package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/server"
	"github.com/paige-dev/paige/internal/server/sse"
)

func (a *API) handleStream() http.Handler {
	return a.onSession(func(w http.ResponseWriter, r *http.Request, s core.Session) {
		run, fresh := a.runs.reserve(s.ID)
		if fresh {
			a.runs.launch(s.ID, run, a.runSession(s.ID))
		}
		a.follow(w, r, run)
	})
}

// runSession returns the body of a run: reload the session (it may have
// changed since the request looked at it) and let the runner continue it.
// The runner re-sends a pending prompt, continues a due run, or just ends.
func (a *API) runSession(id string) func(ctx context.Context, emit func(core.Event)) {
	return func(ctx context.Context, emit func(core.Event)) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		s, err := a.repo.GetSession(lctx, id)
		cancel()
		if err != nil {
			emit(a.repoError(err, "Session", id, "load session").SSE())
			emit(core.Done(true, false))
			return
		}
		if s.Status == core.StatusCancelled {
			emit(core.NewError(core.CodeInvalidSessionState, "Session is cancelled").WithSession(id).
				ForPeople("This session was cancelled, so the agent will not continue it. Start a new session to keep exploring.").SSE())
			emit(core.Event{Type: core.EventDone, Data: core.DoneData{Error: true, Cancelled: true}})
			return
		}
		a.runner.Run(ctx, &s, emit)
	}
}

// shutdownDrain bounds how long a stream waits, once the server shuts down,
// for its run to emit the final events (below the server's 5 s drain).
const shutdownDrain = 3 * time.Second

// follow streams run's events as SSE from its first event until it ends or
// the client goes away, with keep-alive comments while idle. A run whose
// last follower went away is cancelled after [Options.DisconnectGrace]
// (closing the page stops the model calls it was paying for). When the
// request ends because the server shuts down, it cancels the runs itself
// (the OnShutdown hook may not have run yet), forwards their final events
// and, if the run does not end within shutdownDrain, writes the shutdown
// error and done itself.
func (a *API) follow(w http.ResponseWriter, r *http.Request, run *liveRun) {
	stream, err := sse.Start(w)
	if err != nil {
		a.log.Error("ghostpath: cannot stream", "err", err)
		return
	}
	run.attach()
	defer run.detach(a.o.DisconnectGrace)
	tick := time.NewTicker(a.o.Heartbeat)
	defer tick.Stop()
	reqDone := r.Context().Done()
	var drain <-chan time.Time
	for i := 0; ; {
		frames, notify, done := run.since(i)
		if len(frames) > 0 {
			if stream.Frames(frames...) != nil {
				return
			}
		}
		i += len(frames)
		if done {
			return
		}
		select {
		case <-notify:
		case <-tick.C:
			if stream.KeepAlive() != nil {
				return
			}
		case <-reqDone:
			if !errors.Is(context.Cause(r.Context()), server.ErrShuttingDown) {
				return // the client went away; detach abandons the run after the grace
			}
			a.runs.shutdown()
			reqDone = nil
			t := time.NewTimer(shutdownDrain)
			defer t.Stop()
			drain = t.C
		case <-drain:
			a.log.Warn("ghostpath: run did not end in time at shutdown; closing its stream")
			frames, _, _ := run.since(i)
			_ = stream.Frames(append(append([][]byte(nil), frames...),
				encodeFrame(shutdownError().SSE()), encodeFrame(core.Done(true, false)))...)
			return
		}
	}
}
