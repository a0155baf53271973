package session

import (
	"context"
	"encoding/json"

	"github.com/paige-dev/paige/internal/coach"
)

// Progress event types written to progress_events (the dashboard counts
// hint_used; paige_get_session_state's progress item lists them all).
const (
	ProgressPhaseStarted   = "phase_started"
	ProgressPhaseCompleted = "phase_completed"
	ProgressHintUsed       = "hint_used"
	// ProgressHintLevelChanged is recorded when the phase becoming active
	// coaches at another hint level than the phase active before it.
	ProgressHintLevelChanged = "hint_level_changed"
)

// RecordProgress adds a progress event to the current phase (see
// [CurrentPhase]) of the active session's plan. Without an active session
// or a plan it records nothing; a failure is logged, never returned: the
// coaching action itself succeeded.
func (s *Service) RecordProgress(ctx context.Context, eventType string, data any) {
	sess, ok := s.Active()
	if !ok {
		return
	}
	_, phases, ok, err := s.Plan(ctx, sess.ID)
	if err != nil || !ok {
		return
	}
	if ph, ok := CurrentPhase(phases); ok {
		s.addProgress(ctx, ph, eventType, data)
	}
}

// addProgress writes one progress event of ph.
func (s *Service) addProgress(ctx context.Context, ph coach.Phase, eventType string, data any) {
	b, err := json.Marshal(data)
	if err == nil {
		_, err = s.store.AddProgressEvent(ctx, ph.ID, eventType, b)
	}
	if err != nil {
		s.log.Error("cannot record progress", "event", eventType, "phase", ph.ID, "err", err)
	}
}

// phaseProgress records what a phase status change means for progress:
// phase_started / phase_completed, and hint_level_changed when the phase
// becoming active has another hint level than the one active before.
func (s *Service) phaseProgress(ctx context.Context, ph coach.Phase, prev coach.HintLevel) {
	data := map[string]any{"phaseNumber": ph.Number}
	switch ph.Status {
	case coach.PhaseActive:
		s.addProgress(ctx, ph, ProgressPhaseStarted, data)
		if ph.HintLevel != prev {
			s.addProgress(ctx, ph, ProgressHintLevelChanged, map[string]any{"from": string(prev), "to": string(ph.HintLevel)})
		}
	case coach.PhaseComplete:
		s.addProgress(ctx, ph, ProgressPhaseCompleted, data)
	}
}
