package wsapi

import (
	"context"
	"errors"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
)

// handleSessionStart starts the session through [Server.StartSession]
// (session:started, then the project tree).
func (s *Server) handleSessionStart(ctx context.Context, req *Request, in SessionStart) error {
	_, err := s.start(ctx, in, req, StartOptions{})
	return err
}

// handleSessionResume reactivates a session and broadcasts session:resumed
// with what the UI needs to rebuild it, then the project tree.
func (s *Server) handleSessionResume(ctx context.Context, req *Request, in SessionResume) error {
	sess, err := s.sess.Resume(ctx, in.SessionID)
	if errors.Is(err, session.ErrNotFound) {
		return &Error{Code: CodeSessionNotFound, Message: err.Error(), Context: map[string]any{"sessionId": in.SessionID}}
	}
	if err != nil {
		return err
	}
	_, phases, _, err := s.sess.Plan(ctx, sess.ID)
	if err != nil {
		return err
	}
	req.Broadcast(TypeSessionResumed, SessionResumed{RestoredState: RestoredState{
		SessionID:    sess.ID,
		IssueContext: issueContext(sess),
		Phases:       PhaseSummaries(phases),
		OpenFiles:    s.sess.OpenFiles(),
		StartedAt:    formatTime(sess.StartedAt),
	}})
	s.broadcastTree(ctx, req.ID, req)
	return nil
}

// handleSessionEnd completes the active session and broadcasts session:ended.
func (s *Server) handleSessionEnd(ctx context.Context, req *Request, _ Empty) error {
	sess, err := s.sess.End(ctx)
	if err != nil {
		return asNoSession(err)
	}
	req.Broadcast(TypeSessionEnded, SessionEnded{Summary: SessionSummary{
		SessionID:  sess.ID,
		Status:     string(sess.Status),
		StartedAt:  formatTime(sess.StartedAt),
		EndedAt:    formatTime(*sess.EndedAt),
		DurationMs: session.Duration(sess).Milliseconds(),
	}})
	return nil
}

// handleObserverMute keeps the mute toggle in memory (D62), logs
// observer_muted and broadcasts observer:status. Without a session it is
// ignored with a warning (EC-70).
func (s *Server) handleObserverMute(ctx context.Context, req *Request, m ObserverMute) error {
	if _, ok := s.sess.Active(); !ok {
		s.log.Warn("observer:mute without an active session ignored")
		return nil
	}
	s.sess.SetMuted(*m.Muted)
	s.logAction(ctx, coach.ActionObserverMuted, map[string]any{"muted": *m.Muted})
	req.Broadcast(TypeObserverStatus, ObserverStatus{Active: false, Muted: *m.Muted})
	return nil
}

// broadcastTree broadcasts fs:tree with reqID; a scan failure is answered
// to req's sender when there is one, and logged.
func (s *Server) broadcastTree(ctx context.Context, reqID string, req *Request) {
	root, err := s.files.Tree(ctx)
	if err != nil {
		s.log.Error("cannot scan project tree", "err", err)
		if req != nil {
			req.Reply(TypeConnectionError, ConnectionError{Code: CodeFileError, Message: "cannot scan the project tree: " + err.Error()})
		}
		return
	}
	s.broadcast(reqID, TypeFSTree, FSTree{Root: root})
}

func issueContext(sess coach.Session) *IssueContext {
	if sess.IssueNumber == nil && sess.IssueTitle == "" {
		return nil
	}
	ic := &IssueContext{Title: sess.IssueTitle}
	if sess.IssueNumber != nil {
		ic.Number = *sess.IssueNumber
	}
	return ic
}

// PhaseSummaries maps phases to their UI form; never nil.
func PhaseSummaries(phases []coach.Phase) []PhaseSummary {
	out := make([]PhaseSummary, 0, len(phases))
	for _, ph := range phases {
		out = append(out, PhaseSummary{ID: ph.ID, Number: ph.Number, Title: ph.Title,
			Description: ph.Description, Status: string(ph.Status), HintLevel: string(ph.HintLevel)})
	}
	return out
}
