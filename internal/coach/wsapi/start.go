package wsapi

import (
	"context"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
)

// IssueLookup finds an issue's title and summary by number (the GitHub
// CLI in production).
type IssueLookup interface {
	LookupIssue(ctx context.Context, number int) (IssueContext, error)
}

// StartResult is what [Server.StartSession] did.
type StartResult struct {
	Session coach.Session
	// Started is the session:started payload that was broadcast.
	Started SessionStarted
	// Kept is true when the request named the issue of the session already
	// active and KeepSame was set: nothing was created or broadcast.
	Kept bool
	// LookupError is the issue lookup's failure, if one ran and failed; the
	// session was started without the issue's title.
	LookupError error
}

// StartSession is session:start's effects, shared by the WebSocket
// handler and the MCP tool paige_start_session: when only an issue number
// is given and an [IssueLookup] is configured, the issue's title and
// summary are looked up (a failure is reported in the result, the session
// still starts); the session is started (a session already active is
// abandoned); session:started and then fs:tree are broadcast.
//
// With KeepSame, a request for the issue of the session already active
// (same number, or no number and no title on both sides) keeps that
// session instead: nothing is created, abandoned or broadcast.
func (s *Server) StartSession(ctx context.Context, in SessionStart, opts StartOptions) (StartResult, error) {
	return s.start(ctx, in, nil, opts)
}

// StartOptions are what paige_start_session adds to session:start.
type StartOptions struct {
	// KeepSame keeps the active session when it is on the requested issue.
	KeepSame bool
	// Goal is logged with session_started.
	Goal string
}

// start is StartSession for req (nil from MCP): broadcasts carry its id and
// a tree scan failure is answered to its sender.
func (s *Server) start(ctx context.Context, in SessionStart, req *Request, opts StartOptions) (StartResult, error) {
	reqID := ""
	if req != nil {
		reqID = req.ID
	}
	if opts.KeepSame {
		if cur, ok := s.sess.Active(); ok && sameIssue(cur, in) {
			return StartResult{Session: cur, Kept: true, Started: s.startedPayload(cur, issueContext(cur))}, nil
		}
	}
	var res StartResult
	ic := &IssueContext{Title: strings.TrimSpace(in.IssueTitle)}
	if in.IssueNumber != nil {
		ic.Number = *in.IssueNumber
		if ic.Title == "" && s.issues != nil {
			found, err := s.issues.LookupIssue(ctx, *in.IssueNumber)
			if err != nil {
				s.log.Warn("issue lookup failed; session started without its title", "issue", *in.IssueNumber, "err", err)
				res.LookupError = err
			} else {
				found.Number = *in.IssueNumber
				ic = &found
			}
		}
	}
	sess, err := s.sess.Start(ctx, session.StartInput{IssueNumber: in.IssueNumber, IssueTitle: ic.Title, Goal: opts.Goal})
	if err != nil {
		return res, err
	}
	if in.IssueNumber == nil && ic.Title == "" {
		ic = nil
	}
	res.Session, res.Started = sess, s.startedPayload(sess, ic)
	s.broadcast(reqID, TypeSessionStarted, res.Started)
	s.broadcastTree(ctx, reqID, req)
	return res, nil
}

func (s *Server) startedPayload(sess coach.Session, ic *IssueContext) SessionStarted {
	return SessionStarted{SessionID: sess.ID, IssueContext: ic, Phases: []PhaseSummary{},
		HintLevel: string(coach.HintNone), OpenFiles: s.sess.OpenFiles()}
}

// sameIssue reports whether in asks for the issue cur is about.
func sameIssue(cur coach.Session, in SessionStart) bool {
	if in.IssueNumber == nil || cur.IssueNumber == nil {
		return in.IssueNumber == nil && cur.IssueNumber == nil && in.IssueTitle == "" && cur.IssueTitle == ""
	}
	return *in.IssueNumber == *cur.IssueNumber
}

// broadcast sends a message to every client carrying reqID.
func (s *Server) broadcast(reqID, typ string, payload any) {
	s.hub.BroadcastEnvelope(s.hub.envelope(typ, payload, reqID))
}
