package mcpapi

import (
	"fmt"

	"github.com/paige-dev/paige/internal/coach/limits"
)

// limited is an input with size limits (package limits). [AddTool] checks
// them after decoding and before the handler runs: an input over a limit
// is a tool error naming the field, the limit and the actual value, and
// the handler never sees it.
type limited interface {
	CheckLimits() error
}

var (
	_ limited = PathIn{}
	_ limited = OptionalPathIn{}
	_ limited = StateIn{}
	_ limited = HighlightIn{}
	_ limited = HintFilesIn{}
	_ limited = PhaseIn{}
	_ limited = MessageIn{}
	_ limited = IssueIn{}
	_ limited = PipelineIn{}
	_ limited = EndSessionIn{}
)

// CheckLimits checks the path's length and depth.
func (in PathIn) CheckLimits() error { return limits.Path("path", in.Path) }

// CheckLimits checks the path's length and depth.
func (in OptionalPathIn) CheckLimits() error { return limits.Path("path", in.Path) }

// CheckLimits checks the number and size of the items.
func (in StateIn) CheckLimits() error { return limits.Names("include", in.Include, limits.NameBytes) }

// CheckLimits checks the path, the style and the hover text.
func (in HighlightIn) CheckLimits() error {
	return limits.First(
		limits.Path("path", in.Path),
		limits.Bytes("style", in.Style, limits.NameBytes),
		limits.Bytes("hoverText", in.HoverText, limits.TextBytes))
}

// CheckLimits checks that hints and paths together hold at most
// [limits.PathsPerCall] paths, each path, each style and each hint's
// directories. It stops at the first field over a limit.
func (in HintFilesIn) CheckLimits() error {
	if n := len(in.Hints) + len(in.Paths); n > limits.PathsPerCall {
		return &limits.Error{Field: "hints+paths", Limit: limits.PathsPerCall, Actual: n, Unit: "items"}
	}
	if err := limits.Bytes("style", in.Style, limits.NameBytes); err != nil {
		return err
	}
	for i, h := range in.Hints {
		field := fmt.Sprintf("hints[%d]", i)
		if err := limits.First(
			limits.Path(field+".path", h.Path),
			limits.Bytes(field+".style", h.Style, limits.NameBytes),
			limits.Paths(field+".directories", h.Directories, limits.ListItems)); err != nil {
			return err
		}
	}
	return limits.Paths("paths", in.Paths, limits.PathsPerCall)
}

// CheckLimits checks the status.
func (in PhaseIn) CheckLimits() error {
	return limits.Bytes("status", string(in.Status), limits.NameBytes)
}

// CheckLimits checks the message, its type and the anchor's path.
func (in MessageIn) CheckLimits() error {
	err := limits.First(
		limits.Bytes("message", in.Message, limits.TextBytes),
		limits.Bytes("type", in.Type, limits.NameBytes))
	if err == nil && in.Anchor != nil {
		err = limits.Path("anchor.path", in.Anchor.Path)
	}
	return err
}

// CheckLimits checks the title, summary, labels and URL.
func (in IssueIn) CheckLimits() error {
	return limits.First(
		limits.Bytes("title", in.Title, limits.TitleBytes),
		limits.Bytes("summary", in.Summary, limits.TextBytes),
		limits.Names("labels", in.Labels, limits.NameBytes),
		limits.Bytes("url", in.URL, limits.TitleBytes))
}

// CheckLimits checks the plan and the issue summary.
func (in PipelineIn) CheckLimits() error {
	return limits.First(
		limits.Bytes("planText", in.PlanText, limits.DocumentBytes),
		limits.Bytes("issueSummary", in.IssueSummary, limits.TextBytes))
}

// CheckLimits checks the transcript.
func (in EndSessionIn) CheckLimits() error {
	return limits.Bytes("sessionTranscript", in.SessionTranscript, limits.DocumentBytes)
}
