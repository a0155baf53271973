package observer

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/actionlog"
	"github.com/paige-dev/paige/internal/coach/prompts/observertriage"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/llm"
)

// run is one session's Observer: its loop goroutine and state.
type run struct {
	m      *Manager
	sub    *actionlog.Subscription
	ticker Ticker
	stop   chan struct{} // closed by Manager.stopLocked
	done   chan struct{} // closed when loop has exited

	mu sync.Mutex
	st State // guarded by mu (st.SessionID is immutable)
}

// status returns the observer:status payload. r.mu must be held or r not
// yet shared.
func (r *run) status() Status {
	return Status{Active: r.st.Active, Muted: r.st.Muted, LastEvaluation: isoOrNil(r.st.LastEvaluation)}
}

// loop handles bus events and idle ticks until stop is closed.
func (r *run) loop() {
	defer r.m.wg.Done()
	defer close(r.done)
	defer r.ticker.Stop()
	defer r.sub.Unsubscribe()
	for {
		select {
		case <-r.stop:
			return
		case e, ok := <-r.sub.C():
			if !ok {
				return
			}
			r.handle(e)
		case <-r.ticker.C():
			r.idleTick()
		}
	}
}

// handle applies one bus event: the observed session's go through event.
func (r *run) handle(e actionlog.Event) {
	if e.SessionID == r.st.SessionID {
		r.event(e.Type)
	}
	if r.m.onEvent != nil {
		r.m.onEvent(e)
	}
}

// idleTick is the idle timer's check.
func (r *run) idleTick() {
	r.mu.Lock()
	now := r.m.o.Clock.Now()
	trigger := r.st.IdleTick(now)
	r.mu.Unlock()
	if trigger != TriggerNone {
		r.trigger(trigger, now)
	}
}

// event applies one bus event of the observed session.
func (r *run) event(t coach.ActionType) {
	r.mu.Lock()
	trigger := TriggerNone
	var now time.Time
	if r.st.Active {
		now = r.m.o.Clock.Now()
		trigger = r.st.Observe(t, now)
	}
	r.mu.Unlock()
	if trigger != TriggerNone {
		r.trigger(trigger, now)
	}
}

// trigger runs the suppression checks for a trigger that fired at now and
// starts an evaluation when none applies. The clock is read once per
// event, not again here (issue 15: a clock read is 140 ns on this machine,
// and offline every buffer update past the fifth triggers).
func (r *run) trigger(trigger Trigger, now time.Time) {
	r.mu.Lock()
	reason := Suppress(&r.st, now)
	var snap Snapshot
	// Offline (no API key) there is nothing to ask: skip the snapshot reads.
	if reason == ReasonNone && r.m.o.LLM.Available() {
		r.st.BeginEvaluation(trigger)
		snap = Snapshot{LastNudge: r.st.LastNudge, LastActivity: r.st.LastActivity}
		r.m.wg.Add(1)
		go r.evaluate(trigger, snap)
	}
	logIt := r.st.NoteSuppressed(reason)
	r.mu.Unlock()
	if logIt {
		r.logAction(coach.ActionNudgeSuppressed, map[string]any{"reason": string(reason), "trigger": string(trigger)})
	}
}

// evaluate assembles the snapshot, calls triage and acts on the reply.
func (r *run) evaluate(trigger Trigger, snap Snapshot) {
	defer r.m.wg.Done()
	if f := r.m.onFinish; f != nil {
		defer f()
	}
	ctx, cancel := context.WithTimeout(r.m.ctx, r.m.o.EvalTimeout)
	defer cancel()
	sid := r.st.SessionID
	if err := r.readSnapshot(ctx, &snap); err != nil {
		r.m.log.Warn("observer: context snapshot failed; evaluation skipped", "session", sid, "err", err)
		r.finish(observertriage.Response{}, err)
		return
	}
	user := observertriage.Assemble(BuildContext(snap, r.m.o.Clock.Now()))
	resp, _, err := llm.Call[observertriage.Response](ctx, r.m.o.LLM, observertriage.Request(sid, user))
	if err != nil {
		level := r.m.log.Warn
		if errors.Is(err, llm.ErrNoModel) {
			level = r.m.log.Debug
		}
		level("observer: triage failed; no nudge", "session", sid, "trigger", string(trigger), "err", err)
	}
	r.finish(resp, err)
}

// readSnapshot fills snap from SQLite: the active phase, the last 20
// actions, the last save and the Dreyfus assessments.
func (r *run) readSnapshot(ctx context.Context, snap *Snapshot) error {
	st, sid := r.m.o.Store, r.st.SessionID
	plan, err := st.LatestPlan(ctx, sid)
	switch {
	case err == nil:
		phases, err := st.Phases(ctx, plan.ID)
		if err != nil {
			return err
		}
		snap.Phase = activePhase(phases)
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	if snap.Actions, err = st.RecentActions(ctx, store.ActionQuery{SessionID: sid, Types: snapshotTypes,
		Limit: observertriage.MaxRecentActions}); err != nil {
		return err
	}
	save, err := st.LastAction(ctx, sid, coach.ActionFileSave)
	switch {
	case err == nil:
		snap.LastSave = save.CreatedAt
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	snap.Dreyfus, err = st.DreyfusAssessments(ctx)
	return err
}

// snapshotTypes are the action types the snapshot lists: all but
// nudge_suppressed.
var snapshotTypes = func() []coach.ActionType {
	var out []coach.ActionType
	for _, t := range coach.ActionTypes {
		if t != coach.ActionNudgeSuppressed {
			out = append(out, t)
		}
	}
	return out
}()

// activePhase returns the phase with status active, nil when none.
func activePhase(phases []coach.Phase) *coach.Phase {
	for i := range phases {
		if phases[i].Status == coach.PhaseActive {
			return &phases[i]
		}
	}
	return nil
}

// finish records the evaluation's end and delivers its outcome. A result
// arriving after the session ended, or after the user muted the Observer,
// is discarded (EC-66).
func (r *run) finish(resp observertriage.Response, err error) {
	r.mu.Lock()
	r.st.Evaluating = false
	if !r.st.Active || r.st.Muted || err != nil {
		r.mu.Unlock()
		return
	}
	now := r.m.o.Clock.Now()
	r.st.LastEvaluation = now
	outcome := Decide(resp)
	if outcome == OutcomeNudge {
		r.st.LastNudge = now
	}
	r.mu.Unlock()
	switch outcome {
	case OutcomeNudge:
		r.logAction(coach.ActionNudgeSent, map[string]any{"signal": resp.Signal, "confidence": resp.Confidence})
		r.m.o.Notifier.Nudge(Nudge{Signal: resp.Signal, Confidence: resp.Confidence,
			Context: nudgeContext(resp.SuggestedContext)})
	case OutcomeLowConfidence:
		r.logAction(coach.ActionNudgeSuppressed, map[string]any{"signal": resp.Signal, "confidence": resp.Confidence,
			"reason": string(ReasonLowConfidence)})
	case OutcomeContradictory:
		r.m.log.Warn("observer: triage said nudge with signal no_nudge; not nudging", "session", r.st.SessionID,
			"confidence", resp.Confidence)
	}
}

// nudgeContext is the observer:nudge context: the four suggested fields,
// null when the model gave none.
func nudgeContext(c observertriage.SuggestedContext) map[string]any {
	v := func(p *string) any {
		if p == nil {
			return nil
		}
		return *p
	}
	return map[string]any{"current_file": v(c.CurrentFile), "expected_file": v(c.ExpectedFile),
		"time_in_file": v(c.TimeInFile), "phase_description": v(c.PhaseDescription)}
}

func (r *run) logAction(t coach.ActionType, data any) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.m.ctx), 10*time.Second)
	defer cancel()
	if err := r.m.o.Actions.LogSession(ctx, r.st.SessionID, t, data); err != nil {
		r.m.log.Error("observer: action not logged", "action", string(t), "err", err)
	}
}
