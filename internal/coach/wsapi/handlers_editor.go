package wsapi

import (
	"context"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/coach"
)

// Capabilities lists what this server offers, sent in connection:init.
var Capabilities = []string{"files", "buffers", "tree", "sessions", "mcp"}

// handleHello stores the connection's metadata and answers connection:init
// (FR-053, D25).
func (s *Server) handleHello(_ context.Context, req *Request, h ConnectionHello) error {
	req.Conn.setHello(h)
	s.log.Info("editor connected", "conn", req.Conn.ID, "version", h.Version, "platform", h.Platform,
		"width", h.WindowSize.Width, "height", h.WindowSize.Height)
	req.Reply(TypeConnectionInit, ConnectionInit{
		SessionID:     s.sess.ActiveID(),
		ConnectionID:  req.Conn.ID,
		ServerVersion: s.version,
		Capabilities:  Capabilities,
		FeatureFlags: map[string]bool{
			"explain":   s.ext.Explain != nil,
			"review":    s.ext.Review != nil,
			"practice":  s.ext.SubmitSolution != nil,
			"dashboard": s.ext.DashboardRequest != nil,
			"observer":  s.ext.ObserverMute != nil,
			"model":     s.model,
		},
		Terminal: req.Conn.termStatus,
	})
	return nil
}

// fileError answers a failed file operation (EC-26).
func fileError(path string, err error) error {
	return &Error{Code: CodeFileError, Message: err.Error(), Context: map[string]any{"path": path}}
}

// handleFileOpen reads the file, adds it to the open-files set, logs
// file_open and broadcasts fs:content (FR-054, D29).
func (s *Server) handleFileOpen(ctx context.Context, req *Request, p PathPayload) error {
	f, err := s.files.ReadFile(ctx, p.Path)
	if err != nil {
		return fileError(p.Path, err)
	}
	if _, err := s.sess.OpenFile(f.Path); err != nil {
		return fileError(p.Path, err)
	}
	s.logAction(ctx, coach.ActionFileOpen, map[string]any{"path": f.Path})
	req.Broadcast(TypeFSContent, f)
	return nil
}

// handleFileSave writes the file, logs file_save and answers fs:save_ack,
// or fs:save_error on failure (FR-055, EC-27). The ack is sent only once the
// file_save row is committed; if it cannot be stored the answer is
// fs:save_error (the file itself was written: saving again is harmless).
func (s *Server) handleFileSave(ctx context.Context, req *Request, f FileSave) error {
	path, err := s.files.WriteFile(ctx, f.Path, *f.Content)
	if err != nil {
		s.log.Warn("file save failed", "path", f.Path, "err", err)
		req.Broadcast(TypeFSSaveError, FSSaveError{Path: f.Path, Error: err.Error()})
		return nil
	}
	err = s.sess.Log(ctx, coach.ActionFileSave, map[string]any{"path": path, "charCount": utf8.RuneCountInString(*f.Content)})
	if err != nil {
		s.log.Error("cannot log action", "action", string(coach.ActionFileSave), "path", path, "err", err)
		req.Broadcast(TypeFSSaveError, FSSaveError{Path: path, Error: "file written, but the save could not be recorded: " + err.Error()})
		return nil
	}
	req.Broadcast(TypeFSSaveAck, FSSaveAck{Path: path, Success: true, Timestamp: s.hub.now().UnixMilli()})
	return nil
}

// handleFileClose removes the file from the open-files set and logs file_close.
func (s *Server) handleFileClose(ctx context.Context, _ *Request, p PathPayload) error {
	path, err := s.sess.CloseFile(p.Path)
	if err != nil {
		return fileError(p.Path, err)
	}
	s.logAction(ctx, coach.ActionFileClose, map[string]any{"path": path})
	return nil
}

// handleBufferUpdate updates the buffer cache and the buffer logging state;
// nothing is sent back (FR-056, scenario 5.4).
func (s *Server) handleBufferUpdate(ctx context.Context, _ *Request, b BufferUpdate) error {
	if _, err := s.files.UpdateBuffer(ctx, b); err != nil {
		return fileError(b.Path, err)
	}
	return nil
}

func (s *Server) handleTabSwitch(ctx context.Context, _ *Request, t EditorTabSwitch) error {
	s.logAction(ctx, coach.ActionTabSwitch, map[string]any{"fromPath": t.FromPath, "toPath": t.ToPath})
	return nil
}

func (s *Server) handleSelection(ctx context.Context, _ *Request, e EditorSelection) error {
	s.logAction(ctx, coach.ActionSelection, map[string]any{"path": e.Path, "range": e.Range, "textLength": e.TextLength})
	return nil
}

func (s *Server) handleHintLevel(ctx context.Context, _ *Request, h HintsLevelChange) error {
	s.logAction(ctx, coach.ActionHintLevelChange, map[string]any{"level": string(h.Level), "previousLevel": string(h.PreviousLevel)})
	return nil
}

// handleTerminalSize stores the terminal dimensions on the connection
// (terminal:ready, terminal:resize; Minimal).
func (s *Server) handleTerminalSize(_ context.Context, req *Request, t TerminalSize) error {
	req.Conn.setTerminal(t)
	return nil
}

func (s *Server) handleIdleStart(ctx context.Context, _ *Request, u UserIdleStart) error {
	s.logAction(ctx, coach.ActionIdleStart, map[string]any{"lastActionTimestamp": u.LastActionTimestamp})
	return nil
}

func (s *Server) handleIdleEnd(ctx context.Context, _ *Request, _ Empty) error {
	s.logAction(ctx, coach.ActionIdleEnd, map[string]any{})
	return nil
}
