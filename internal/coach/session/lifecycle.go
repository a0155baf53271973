package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
)

// StartInput is what session:start carries. IssueNumber nil means a session
// without a GitHub issue.
type StartInput struct {
	IssueNumber *int
	IssueTitle  string
	// Goal, if set, is what the developer means to do (paige_start_session);
	// it is logged with session_started.
	Goal string
}

// Start creates a new active sessions row, logs session_started and makes it
// the active session. A session that was active is abandoned first. The
// previous session's highlights and hints are cleared; the open-files set is
// editor state and survives.
func (s *Service) Start(ctx context.Context, in StartInput) (coach.Session, error) {
	s.Flush(ctx)
	if prev, ok := s.Active(); ok {
		if _, err := s.finish(ctx, prev, coach.SessionAbandoned); err != nil {
			return coach.Session{}, err
		}
	}
	sess, err := s.store.CreateSession(ctx, store.NewSession{
		ProjectDir: s.opts.ProjectDir, IssueNumber: in.IssueNumber, IssueTitle: in.IssueTitle,
	})
	if err != nil {
		return coach.Session{}, fmt.Errorf("create session: %w", err)
	}
	s.setActive(&sess, true)
	s.warned.Clear()
	data := map[string]any{"issueNumber": in.IssueNumber}
	if in.Goal != "" {
		data["goal"] = in.Goal
	}
	s.logFor(ctx, sess.ID, coach.ActionSessionStarted, data)
	s.notify(ctx, Event{Kind: Started, Session: sess})
	return sess, nil
}

// Resume reactivates the session with id: its row becomes active again
// (ended_at cleared), session_resumed is logged and it becomes the active
// session. Resuming the session that is already active only re-announces
// it. A different active session is abandoned first. An unknown id returns
// an error wrapping [ErrNotFound].
func (s *Service) Resume(ctx context.Context, id string) (coach.Session, error) {
	s.Flush(ctx)
	target, err := s.store.Session(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return coach.Session{}, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return coach.Session{}, fmt.Errorf("find session: %w", err)
	}
	prev, hadActive := s.Active()
	if hadActive && prev.ID != id {
		if _, err := s.finish(ctx, prev, coach.SessionAbandoned); err != nil {
			return coach.Session{}, err
		}
	}
	sess, err := s.store.SetSessionStatus(ctx, target.ID, coach.SessionActive)
	if err != nil {
		return coach.Session{}, fmt.Errorf("reactivate session: %w", err)
	}
	s.setActive(&sess, !hadActive || prev.ID != id)
	s.logFor(ctx, sess.ID, coach.ActionSessionResumed, map[string]any{"previousSessionId": target.ID})
	s.notify(ctx, Event{Kind: Resumed, Session: sess})
	return sess, nil
}

// End completes the active session: status completed, ended_at now,
// session_ended logged with {status, durationMs}. It returns the final row,
// or [ErrNoActiveSession].
func (s *Service) End(ctx context.Context) (coach.Session, error) {
	sess, err := s.Require()
	if err != nil {
		return sess, err
	}
	return s.finish(ctx, sess, coach.SessionCompleted)
}

// finish moves sess to status, logs session_ended, clears the live state and
// notifies subscribers.
func (s *Service) finish(ctx context.Context, sess coach.Session, status coach.SessionStatus) (coach.Session, error) {
	s.Flush(ctx) // the session's actions are stored before it ends
	done, err := s.store.SetSessionStatus(ctx, sess.ID, status)
	if err != nil {
		return coach.Session{}, fmt.Errorf("end session: %w", err)
	}
	s.logFor(ctx, done.ID, coach.ActionSessionEnded, map[string]any{
		"status": string(status), "durationMs": Duration(done).Milliseconds(),
	})
	s.setActive(nil, true)
	s.notify(ctx, Event{Kind: Ended, Session: done})
	return done, nil
}

// setActive replaces the active session; reset also clears the highlights
// and hints that belonged to the previous one.
func (s *Service) setActive(sess *coach.Session, reset bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active = sess
	if reset {
		s.highlights = map[string][]Highlight{}
		s.nHighlights = 0
		s.hints = map[string]hintEntry{}
	}
}

// logFor logs an action for a known session id (lifecycle actions are
// logged for the session they concern even while it is not active).
func (s *Service) logFor(ctx context.Context, id string, t coach.ActionType, data any) {
	if err := s.actions.LogSession(ctx, id, t, data); err != nil {
		s.log.Error("cannot log session action", "action", string(t), "session", id, "err", err)
	}
}
