package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
)

// ErrPhaseNotFound is returned by [Service.UpdatePhase] for a phase number
// the current plan does not have (EC-31).
var ErrPhaseNotFound = errors.New("phase not found")

// Plan returns the newest plan of sessionID and its phases ordered by
// number; ok is false when the session has no plan (EC-37).
func (s *Service) Plan(ctx context.Context, sessionID string) (plan coach.Plan, phases []coach.Phase, ok bool, err error) {
	plan, err = s.store.LatestPlan(ctx, sessionID)
	if errors.Is(err, store.ErrNotFound) {
		return plan, nil, false, nil
	}
	if err != nil {
		return plan, nil, false, fmt.Errorf("latest plan: %w", err)
	}
	phases, err = s.store.Phases(ctx, plan.ID)
	if err != nil {
		return plan, nil, false, fmt.Errorf("phases: %w", err)
	}
	return plan, phases, true, nil
}

// CurrentPhase picks the phase a coach is on: the active one, else the first
// pending one, else the last; ok is false when there are no phases.
func CurrentPhase(phases []coach.Phase) (coach.Phase, bool) {
	if len(phases) == 0 {
		return coach.Phase{}, false
	}
	for _, ph := range phases {
		if ph.Status == coach.PhaseActive {
			return ph, true
		}
	}
	for _, ph := range phases {
		if ph.Status == coach.PhasePending {
			return ph, true
		}
	}
	return phases[len(phases)-1], true
}

// UpdatePhase moves phase number of the active session's current plan to
// status. Becoming active logs phase_started, becoming complete logs
// phase_completed (in the action log and as progress events, with
// hint_level_changed when the hint level changes); a phase already in status is returned unchanged with
// changed false and nothing logged (EC-32). Errors: [ErrNoActiveSession],
// [ErrPhaseNotFound] (EC-31), or a wrapped store error.
func (s *Service) UpdatePhase(ctx context.Context, number int, status coach.PhaseStatus) (ph coach.Phase, changed bool, err error) {
	sess, err := s.Require()
	if err != nil {
		return ph, false, err
	}
	if !status.Valid() {
		return ph, false, fmt.Errorf("status must be pending, active or complete, got %q", status)
	}
	_, phases, ok, err := s.Plan(ctx, sess.ID)
	if err != nil {
		return ph, false, err
	}
	var target *coach.Phase
	for i := range phases {
		if phases[i].Number == number {
			target = &phases[i]
			break
		}
	}
	if !ok || target == nil {
		return ph, false, fmt.Errorf("phase %d of the current plan: %w", number, ErrPhaseNotFound)
	}
	prevLevel := coach.HintNone
	if cur, ok := CurrentPhase(phases); ok && cur.Status == coach.PhaseActive {
		prevLevel = cur.HintLevel
	}
	ph, changed, err = s.store.SetPhaseStatus(ctx, target.ID, status)
	if err != nil {
		return ph, false, fmt.Errorf("update phase %d: %w", number, err)
	}
	if changed {
		s.phaseProgress(ctx, ph, prevLevel)
		data := map[string]any{"phaseId": ph.ID, "phaseNumber": ph.Number, "title": ph.Title}
		var err error
		switch ph.Status {
		case coach.PhaseActive:
			err = s.Log(ctx, coach.ActionPhaseStarted, data)
		case coach.PhaseComplete:
			err = s.Log(ctx, coach.ActionPhaseCompleted, data)
		}
		if err != nil {
			s.log.Error("cannot log phase change", "phase", ph.Number, "err", err)
		}
	}
	return ph, changed, nil
}
