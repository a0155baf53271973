package wsapi

import (
	"context"
	"net/http"
)

// Message types added for the workbench (issue 12, not in the spec; Story 0
// in the [Catalog]): what the browser needs to rebuild its views on connect
// and reconnect without side effects.
const (
	TypeFSGetTree       = "fs:get_tree"       // client→server: reply fs:tree
	TypeSessionGetState = "session:get_state" // client→server: reply session:state
	TypeSessionState    = "session:state"     // server→client
)

// TerminalStatus tells the workbench whether its terminal (/pty) can open,
// in connection:init: Authorized is whether the /ws upgrade carried the
// terminal's token cookie (HttpOnly, so the page cannot see it itself).
type TerminalStatus struct {
	Available     bool   `json:"available"`
	Authorized    bool   `json:"authorized"`
	ClaudeOnPath  bool   `json:"claudeOnPath"`
	ClaudeInstall string `json:"claudeInstall"`
	Shell         string `json:"shell"`
}

// SessionState answers session:get_state: the active session as
// session:resumed describes it, or null when none is active.
type SessionState struct {
	RestoredState *RestoredState `json:"restoredState"`
}

// terminalStatus is the status for the upgrade request r; nil without a
// terminal.
func (s *Server) terminalStatus(r *http.Request) *TerminalStatus {
	if s.terminal == nil {
		return nil
	}
	st := s.terminal(r)
	return &st
}

// handleGetTree replies fs:tree to the sender only.
func (s *Server) handleGetTree(ctx context.Context, req *Request, _ Empty) error {
	root, err := s.files.Tree(ctx)
	if err != nil {
		s.log.Error("cannot scan project tree", "err", err)
		return &Error{Code: CodeFileError, Message: "cannot scan the project tree: " + err.Error()}
	}
	req.Reply(TypeFSTree, FSTree{Root: root})
	return nil
}

// handleGetState replies session:state: the active session, its plan's
// phases and the open files, changing nothing (unlike session:resume).
func (s *Server) handleGetState(ctx context.Context, req *Request, _ Empty) error {
	sess, ok := s.sess.Active()
	if !ok {
		req.Reply(TypeSessionState, SessionState{})
		return nil
	}
	_, phases, _, err := s.sess.Plan(ctx, sess.ID)
	if err != nil {
		return err
	}
	req.Reply(TypeSessionState, SessionState{RestoredState: &RestoredState{
		SessionID:    sess.ID,
		IssueContext: issueContext(sess),
		Phases:       PhaseSummaries(phases),
		OpenFiles:    s.sess.OpenFiles(),
		StartedAt:    formatTime(sess.StartedAt),
	}})
	return nil
}
