package wsapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// Client → server message types. The spec's catalog lists 23 and its status
// table 23 different ones; this is their union (25): editor:scroll and
// terminal:ready come from the status table, practice:submit_solution and
// terminal:input from the catalog.
const (
	TypeConnectionHello        = "connection:hello"
	TypeDashboardRequest       = "dashboard:request"
	TypeDashboardRefreshIssues = "dashboard:refresh_issues"
	TypeRefreshMaterials       = "dashboard:refresh_materials" // Paige's: research materials again (issue 13)
	TypeSessionStart           = "session:start"
	TypeSessionResume          = "session:resume"
	TypeSessionEnd             = "session:end"
	TypeFileOpen               = "file:open"
	TypeFileSave               = "file:save"
	TypeFileClose              = "file:close"
	TypeBufferUpdate           = "buffer:update"
	TypeEditorTabSwitch        = "editor:tab_switch"
	TypeEditorSelection        = "editor:selection"
	TypeEditorScroll           = "editor:scroll"
	TypeExplorerExpandDir      = "explorer:expand_dir"
	TypeExplorerCollapseDir    = "explorer:collapse_dir"
	TypeHintsLevelChange       = "hints:level_change"
	TypeUserExplain            = "user:explain"
	TypeUserReview             = "user:review"
	TypeUserIdleStart          = "user:idle_start"
	TypeUserIdleEnd            = "user:idle_end"
	TypeObserverMute           = "observer:mute"
	TypePracticeSubmitSolution = "practice:submit_solution"
	TypeTerminalReady          = "terminal:ready"
	TypeTerminalInput          = "terminal:input"
	TypeTerminalResize         = "terminal:resize"
)

// Empty is the payload of messages that carry none ({}).
type Empty struct{}

// WindowSize is the editor window's size in pixels.
type WindowSize struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// ConnectionHello is the handshake a client sends first.
type ConnectionHello struct {
	Version    string     `json:"version"`
	Platform   string     `json:"platform"`
	WindowSize WindowSize `json:"windowSize"`
}

// DashboardRequest asks for the whole dashboard. StatsPeriod defaults to "all".
type DashboardRequest struct {
	StatsPeriod Period `json:"statsPeriod,omitempty"`
}

// Valid reports whether StatsPeriod is empty or a known period.
func (d *DashboardRequest) Valid() error {
	switch d.StatsPeriod {
	case "", "7d", "30d", "all":
		return nil
	}
	return fmt.Errorf("statsPeriod must be 7d, 30d or all, got %q", d.StatsPeriod)
}

// SessionStart starts a coaching session on an issue. IssueTitle is an
// optional addition to the spec's {issueNumber}.
type SessionStart struct {
	IssueNumber *int   `json:"issueNumber,omitempty"`
	IssueTitle  string `json:"issueTitle,omitempty"`
}

// SessionResume reactivates an earlier session.
type SessionResume struct {
	SessionID string `json:"sessionId"`
}

// Valid reports whether SessionID is set.
func (s *SessionResume) Valid() error { return required("sessionId", s.SessionID) }

// PathPayload is the payload of file:open, file:close, explorer:expand_dir
// and explorer:collapse_dir.
type PathPayload struct {
	Path string `json:"path"`
}

// Valid reports whether Path is set.
func (p *PathPayload) Valid() error { return required("path", p.Path) }

// FileSave writes Content to Path. Content must be present (it may be "").
type FileSave struct {
	Path    string  `json:"path"`
	Content *string `json:"content"`
}

// Valid reports whether Path and Content are present.
func (f *FileSave) Valid() error {
	if f.Content == nil {
		return errors.New("content is required")
	}
	return required("path", f.Path)
}

// Position is a cursor position as the editor reports it {line, column}.
type Position = workspace.Cursor

// BufferUpdate carries the editor's current (unsaved) content of Path.
type BufferUpdate struct {
	Path           string            `json:"path"`
	Content        *string           `json:"content"`
	CursorPosition Position          `json:"cursorPosition"`
	Selections     []json.RawMessage `json:"selections,omitempty"`
}

// Valid reports whether Path and Content are present.
func (b *BufferUpdate) Valid() error {
	if b.Content == nil {
		return errors.New("content is required")
	}
	return required("path", b.Path)
}

// EditorTabSwitch reports a tab change.
type EditorTabSwitch struct {
	FromPath string `json:"fromPath"`
	ToPath   string `json:"toPath"`
}

// Valid reports whether ToPath is set.
func (e *EditorTabSwitch) Valid() error { return required("toPath", e.ToPath) }

// Range is a text range in an editor.
type Range struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

// EditorSelection reports a selection change.
type EditorSelection struct {
	Path       string `json:"path"`
	Range      Range  `json:"range"`
	TextLength int    `json:"textLength"`
}

// Valid reports whether Path is set.
func (e *EditorSelection) Valid() error { return required("path", e.Path) }

// EditorScroll reports scrolling; it is accepted and ignored (No-op).
type EditorScroll struct {
	Path      string `json:"path,omitempty"`
	ScrollTop int    `json:"scrollTop,omitempty"`
}

// HintsLevelChange reports the hint slider moving. Levels are accepted as
// strings or numbers and kept as strings (NOTES.md › phase hint level).
type HintsLevelChange struct {
	Level         Flex `json:"level"`
	PreviousLevel Flex `json:"previousLevel"`
}

// Valid reports whether Level is set.
func (h *HintsLevelChange) Valid() error { return required("level", string(h.Level)) }

// Selection is the Explain This selection (story 11).
type Selection struct {
	StartLine int `json:"startLine"`
	StartCol  int `json:"startCol"`
	EndLine   int `json:"endLine"`
	EndCol    int `json:"endCol"`
}

// UserExplain asks Paige to explain a selection. Story 11's shape; story 5's
// {path, range, selectedText} is accepted too (Range).
type UserExplain struct {
	Path               string     `json:"path"`
	Language           string     `json:"language,omitempty"`
	Selection          *Selection `json:"selection,omitempty"`
	Range              *Range     `json:"range,omitempty"`
	SelectedText       string     `json:"selectedText"`
	SurroundingContext string     `json:"surroundingContext,omitempty"`
}

// Valid reports whether Path is set.
func (u *UserExplain) Valid() error { return required("path", u.Path) }

// UserReview asks for a review of a kata solution (story 11 is authoritative).
type UserReview struct {
	KataID                 string   `json:"kataId,omitempty"`
	UserCode               string   `json:"userCode,omitempty"`
	ActiveConstraintTitles []string `json:"activeConstraintTitles,omitempty"`
}

// UserIdleStart reports the user going idle.
type UserIdleStart struct {
	LastActionTimestamp int64 `json:"lastActionTimestamp"`
}

// ObserverMute toggles the Observer.
type ObserverMute struct {
	Muted *bool `json:"muted"`
}

// Valid reports whether Muted is present.
func (o *ObserverMute) Valid() error {
	if o.Muted == nil {
		return errors.New("muted is required")
	}
	return nil
}

// PracticeSubmitSolution submits a kata solution (same flow as user:review,
// NOTES.md › practice review).
type PracticeSubmitSolution struct {
	KataID            string   `json:"kataId"`
	Code              string   `json:"code"`
	ActiveConstraints []string `json:"activeConstraints,omitempty"`
}

// Valid reports whether KataID is set.
func (p *PracticeSubmitSolution) Valid() error { return required("kataId", p.KataID) }

// TerminalSize is the payload of terminal:ready and terminal:resize.
type TerminalSize struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

// Valid reports whether both dimensions are non-negative.
func (t *TerminalSize) Valid() error {
	if t.Cols < 0 || t.Rows < 0 {
		return fmt.Errorf("cols and rows must be >= 0, got %dx%d", t.Cols, t.Rows)
	}
	return nil
}

// TerminalInput is terminal stdin; the PTY lives in the editor, so it is ignored.
type TerminalInput struct {
	Input string `json:"input"`
}

// Flex is a string that also accepts a JSON number or boolean on input.
type Flex string

// UnmarshalJSON accepts a string, a number or a boolean; null leaves it empty.
func (f *Flex) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = Flex(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*f = Flex(n.String())
		return nil
	}
	var v bool
	if err := json.Unmarshal(b, &v); err == nil {
		*f = Flex(fmt.Sprint(v))
		return nil
	}
	return fmt.Errorf("expected a string or a number, got %s", b)
}

func required(name, v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("%s is required", name)
	}
	return nil
}
