// Package limits is the one place that defines how big an input to the
// coaching server may be: paths per call, path length and depth, text
// field sizes, list lengths, buffer content, and the accumulated editor
// state. Both adapters (the MCP tools in mcpapi and the WebSocket messages
// in wsapi) and the workspace check their inputs with the functions here
// before doing any work, so an oversized input costs at most one linear
// pass and is answered with an [*Error] that names the field, the limit
// and the actual value.
//
// The package is pure: no I/O, no locks. docs/websocket.md and
// docs/mcp-tools.md list every limit ("Limits" sections); change them
// together.
package limits

import (
	"errors"
	"fmt"
)

// The limits. Sizes are in bytes of the UTF-8 text as received.
const (
	// PathBytes is the longest path accepted (Linux PATH_MAX).
	PathBytes = 4096
	// PathDepth is the most components a path may have ("a/b/c" has 3).
	PathDepth = 64
	// PathsPerCall is the most paths one call may carry
	// (paige_hint_files: hints and paths together).
	PathsPerCall = 1000
	// NameBytes bounds short identifiers: styles, types, statuses,
	// languages, levels, ids, labels, version and platform strings.
	NameBytes = 256
	// TitleBytes bounds titles and URLs.
	TitleBytes = 2048
	// TextBytes bounds prose shown to the developer: coaching messages,
	// hover texts, issue summaries, selected text, terminal input.
	TextBytes = 64 << 10
	// DocumentBytes bounds whole documents given to the coach: plans,
	// session transcripts, kata solutions, code around a selection.
	DocumentBytes = 4 << 20
	// ContentBytes bounds a file's content in buffer:update and file:save.
	ContentBytes = 10 << 20
	// MessageBytes is the largest WebSocket message handled (a larger one
	// is discarded with MESSAGE_TOO_LARGE, and beyond 4× it the connection
	// is closed) and the largest MCP request body (413 beyond it).
	MessageBytes = 16 << 20
	// ListItems bounds lists that are not paths: labels, state items,
	// constraint titles, selections, directories of one hint.
	ListItems = 100
	// TerminalCells bounds the columns and rows of a terminal size.
	TerminalCells = 10000
	// Hints is the most explorer hints the live session accumulates.
	Hints = 10000
	// Highlights is the most editor highlights the live session
	// accumulates over all files.
	Highlights = 10000
)

// ErrExceeded is wrapped by every [*Error]: errors.Is(err, ErrExceeded)
// reports whether an input was refused for its size.
var ErrExceeded = errors.New("limits: limit exceeded")

// Error says which field of an input is over which limit.
type Error struct {
	Field  string // the field, e.g. "paths" or "hints[3].path"
	Limit  int    // the limit
	Actual int    // the value received
	Unit   string // "bytes", "items", "components", "cells"
}

// Error returns e.g. "paths: 100000 items, over the limit of 1000".
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %d %s, over the limit of %d", e.Field, e.Actual, e.Unit, e.Limit)
}

// Unwrap returns [ErrExceeded].
func (e *Error) Unwrap() error { return ErrExceeded }

// As returns the [*Error] in err's chain, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Bytes reports an [*Error] when s is longer than max bytes.
func Bytes(field, s string, max int) error {
	if len(s) > max {
		return &Error{Field: field, Limit: max, Actual: len(s), Unit: "bytes"}
	}
	return nil
}

// Count reports an [*Error] when n is more than max items.
func Count(field string, n, max int) error {
	if n > max {
		return &Error{Field: field, Limit: max, Actual: n, Unit: "items"}
	}
	return nil
}

// Path reports an [*Error] when p is longer than [PathBytes] or has more
// than [PathDepth] components. It looks only at the text, in one pass that
// stops at the first limit: empty components ("a//b", a leading "/") are
// not counted, both separators are.
func Path(field, p string) error {
	if err := Bytes(field, p, PathBytes); err != nil {
		return err
	}
	if d := Depth(p); d > PathDepth {
		return &Error{Field: field, Limit: PathDepth, Actual: d, Unit: "components"}
	}
	return nil
}

// Depth returns the number of non-empty components of p, separated by "/"
// or "\".
func Depth(p string) int {
	n, inPart := 0, false
	for i := 0; i < len(p); i++ {
		sep := p[i] == '/' || p[i] == '\\'
		if !sep && !inPart {
			n++
		}
		inPart = !sep
	}
	return n
}

// Paths checks the count of ps against max and each path with [Path];
// fields are named field[i].
func Paths(field string, ps []string, max int) error {
	if err := Count(field, len(ps), max); err != nil {
		return err
	}
	for i, p := range ps {
		if err := Path(fmt.Sprintf("%s[%d]", field, i), p); err != nil {
			return err
		}
	}
	return nil
}

// Names checks the count of ss against [ListItems] and each item against
// max bytes; fields are named field[i].
func Names(field string, ss []string, max int) error {
	if err := Count(field, len(ss), ListItems); err != nil {
		return err
	}
	for i, s := range ss {
		if err := Bytes(fmt.Sprintf("%s[%d]", field, i), s, max); err != nil {
			return err
		}
	}
	return nil
}

// Cells reports an [*Error] when n is more than max (terminal cells).
func Cells(field string, n, max int) error {
	if n > max {
		return &Error{Field: field, Limit: max, Actual: n, Unit: "cells"}
	}
	return nil
}

// First returns the first non-nil error: checks read as one list.
func First(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
