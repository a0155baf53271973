package wsapi

import "github.com/paige-dev/paige/internal/coach/limits"

// Size limits of the client payloads (package limits), checked by
// [DecodePayload] before Valid and before any handler runs. Payloads with
// nothing to cap (Empty, UserIdleStart, ObserverMute) are bounded by the
// message size alone.

// CheckLimits checks the version and platform strings.
func (h *ConnectionHello) CheckLimits() error {
	return limits.First(
		limits.Bytes("version", h.Version, limits.NameBytes),
		limits.Bytes("platform", h.Platform, limits.NameBytes))
}

// CheckLimits checks the period string.
func (d *DashboardRequest) CheckLimits() error {
	return limits.Bytes("statsPeriod", string(d.StatsPeriod), limits.NameBytes)
}

// CheckLimits checks the issue title.
func (s *SessionStart) CheckLimits() error {
	return limits.Bytes("issueTitle", s.IssueTitle, limits.TitleBytes)
}

// CheckLimits checks the session id.
func (s *SessionResume) CheckLimits() error {
	return limits.Bytes("sessionId", s.SessionID, limits.NameBytes)
}

// CheckLimits checks the path's length and depth.
func (p *PathPayload) CheckLimits() error { return limits.Path("path", p.Path) }

// CheckLimits checks the path and the content size.
func (f *FileSave) CheckLimits() error {
	err := limits.Path("path", f.Path)
	if err == nil && f.Content != nil {
		err = limits.Bytes("content", *f.Content, limits.ContentBytes)
	}
	return err
}

// CheckLimits checks the path, the content size and the selections.
func (b *BufferUpdate) CheckLimits() error {
	err := limits.First(limits.Path("path", b.Path), limits.Count("selections", len(b.Selections), limits.ListItems))
	if err == nil && b.Content != nil {
		err = limits.Bytes("content", *b.Content, limits.ContentBytes)
	}
	return err
}

// CheckLimits checks both paths.
func (e *EditorTabSwitch) CheckLimits() error {
	return limits.First(limits.Path("fromPath", e.FromPath), limits.Path("toPath", e.ToPath))
}

// CheckLimits checks the path.
func (e *EditorSelection) CheckLimits() error { return limits.Path("path", e.Path) }

// CheckLimits checks the path.
func (e *EditorScroll) CheckLimits() error { return limits.Path("path", e.Path) }

// CheckLimits checks both levels.
func (h *HintsLevelChange) CheckLimits() error {
	return limits.First(
		limits.Bytes("level", string(h.Level), limits.NameBytes),
		limits.Bytes("previousLevel", string(h.PreviousLevel), limits.NameBytes))
}

// CheckLimits checks the path, the language and the texts.
func (u *UserExplain) CheckLimits() error {
	return limits.First(
		limits.Path("path", u.Path),
		limits.Bytes("language", u.Language, limits.NameBytes),
		limits.Bytes("selectedText", u.SelectedText, limits.DocumentBytes),
		limits.Bytes("surroundingContext", u.SurroundingContext, limits.DocumentBytes))
}

// CheckLimits checks the kata id, the code and the constraint titles.
func (u *UserReview) CheckLimits() error {
	return limits.First(
		limits.Bytes("kataId", u.KataID, limits.NameBytes),
		limits.Bytes("userCode", u.UserCode, limits.DocumentBytes),
		limits.Names("activeConstraintTitles", u.ActiveConstraintTitles, limits.TitleBytes))
}

// CheckLimits checks the kata id, the code and the constraints.
func (p *PracticeSubmitSolution) CheckLimits() error {
	return limits.First(
		limits.Bytes("kataId", p.KataID, limits.NameBytes),
		limits.Bytes("code", p.Code, limits.DocumentBytes),
		limits.Names("activeConstraints", p.ActiveConstraints, limits.TitleBytes))
}

// CheckLimits checks the dimensions.
func (t *TerminalSize) CheckLimits() error {
	return limits.First(
		limits.Cells("cols", t.Cols, limits.TerminalCells),
		limits.Cells("rows", t.Rows, limits.TerminalCells))
}

// CheckLimits checks the input size.
func (t *TerminalInput) CheckLimits() error {
	return limits.Bytes("input", t.Input, limits.TextBytes)
}

// CheckLimits checks the kata id.
func (p *PracticeOpen) CheckLimits() error {
	return limits.Bytes("kataId", p.KataID, limits.NameBytes)
}
