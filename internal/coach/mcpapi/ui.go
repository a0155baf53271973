package mcpapi

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// Ack is the result of UI control tools.
type Ack struct {
	Success bool   `json:"success"`
	Path    string `json:"path,omitempty"`
	Count   int    `json:"count,omitempty" jsonschema:"highlights now on the file, or hints sent"`
}

// openFile reads a file, adds it to the open set and broadcasts
// editor:open_file (6.8, EC-28); a missing or outside file is an error and
// nothing is broadcast (6.18, EC-29).
func (d *Deps) openFile(_ context.Context, _ *mcp.CallToolRequest, in PathIn) (*mcp.CallToolResult, Ack, error) {
	f, err := d.files.ReadFile(in.Path)
	if err != nil {
		return nil, Ack{}, fmt.Errorf("cannot open %s: %w", in.Path, err)
	}
	if _, err := d.sess.OpenFile(f.Path); err != nil {
		return nil, Ack{}, fmt.Errorf("cannot open %s: %w", in.Path, err)
	}
	d.hub.Broadcast(wsapi.TypeEditorOpenFile, f)
	return nil, Ack{Success: true, Path: f.Path}, nil
}

// HighlightIn is paige_highlight_lines' input.
type HighlightIn struct {
	Path      string `json:"path" jsonschema:"file to decorate"`
	Start     int    `json:"start" jsonschema:"first line, 1-based"`
	End       int    `json:"end" jsonschema:"last line, inclusive"`
	Style     string `json:"style" jsonschema:"decoration style, e.g. info, hint, warning, error"`
	HoverText string `json:"hoverText,omitempty" jsonschema:"text shown on hover"`
}

func (in HighlightIn) valid() error {
	switch {
	case strings.TrimSpace(in.Path) == "":
		return errors.New("path is required")
	case in.Start < 1 || in.End < in.Start:
		return fmt.Errorf("need 1 <= start <= end, got start %d end %d", in.Start, in.End)
	case strings.TrimSpace(in.Style) == "":
		return errors.New("style is required")
	}
	return nil
}

// highlightLines accumulates a highlight, logs decorations_applied and
// broadcasts editor:highlight_lines (6.9, EC-30, EC-36).
func (d *Deps) highlightLines(ctx context.Context, _ *mcp.CallToolRequest, in HighlightIn) (*mcp.CallToolResult, Ack, error) {
	if err := in.valid(); err != nil {
		return nil, Ack{}, err
	}
	h, n, err := d.sess.AddHighlight(session.Highlight{Path: in.Path, Start: in.Start, End: in.End, Style: in.Style, HoverText: in.HoverText})
	if err != nil {
		return nil, Ack{}, fmt.Errorf("%s: %w", in.Path, err)
	}
	d.logAction(ctx, coach.ActionDecorationsApplied, map[string]any{"path": h.Path, "count": 1})
	d.sess.RecordProgress(ctx, session.ProgressHintUsed, map[string]any{"kind": "line", "path": h.Path})
	d.hub.Broadcast(wsapi.TypeEditorHighlightLines, wsapi.HighlightLines{Path: h.Path, Start: h.Start, End: h.End, Style: h.Style, HoverText: h.HoverText})
	return nil, Ack{Success: true, Path: h.Path, Count: n}, nil
}

// clearHighlights clears one file's highlights or all (6.10).
func (d *Deps) clearHighlights(_ context.Context, _ *mcp.CallToolRequest, in OptionalPathIn) (*mcp.CallToolResult, Ack, error) {
	p, err := d.sess.ClearHighlights(in.Path)
	if err != nil {
		return nil, Ack{}, fmt.Errorf("%s: %w", in.Path, err)
	}
	d.hub.Broadcast(wsapi.TypeEditorClearHighlights, wsapi.PathOptional{Path: p})
	return nil, Ack{Success: true, Path: p}, nil
}

// HintFilesIn is paige_hint_files' input: the catalog's hints list, or the
// scenario's paths + style (NOTES.md: accept both).
type HintFilesIn struct {
	Hints []HintIn `json:"hints,omitempty" jsonschema:"files to hint, each with its own style"`
	Paths []string `json:"paths,omitempty" jsonschema:"files to hint with one style (alternative to hints)"`
	Style string   `json:"style,omitempty" jsonschema:"style for paths, e.g. suggested, related, focus"`
}

// HintIn is one file hint.
type HintIn struct {
	Path        string   `json:"path"`
	Style       string   `json:"style"`
	Directories []string `json:"directories,omitempty" jsonschema:"parent directories to glow too"`
}

// hints merges both input forms; paths without a style get "suggested".
func (in HintFilesIn) hints() ([]session.Hint, error) {
	var out []session.Hint
	for _, h := range in.Hints {
		if strings.TrimSpace(h.Path) == "" {
			return nil, errors.New("every hint needs a path")
		}
		out = append(out, session.Hint{Path: h.Path, Style: or(h.Style, "suggested"), Directories: h.Directories})
	}
	for _, p := range in.Paths {
		if strings.TrimSpace(p) == "" {
			return nil, errors.New("paths must not be empty")
		}
		out = append(out, session.Hint{Path: p, Style: or(in.Style, "suggested")})
	}
	if len(out) == 0 {
		return nil, errors.New("give hints [{path, style}] or paths with a style")
	}
	return out, nil
}

// hintFiles broadcasts explorer:hint_files {hints} and logs
// file_hints_applied {paths} (6.11).
func (d *Deps) hintFiles(ctx context.Context, _ *mcp.CallToolRequest, in HintFilesIn) (*mcp.CallToolResult, Ack, error) {
	hints, err := in.hints()
	if err != nil {
		return nil, Ack{}, err
	}
	hints, err = d.sess.AddHints(hints)
	if err != nil {
		return nil, Ack{}, err
	}
	msg := wsapi.ExplorerHintFiles{Hints: make([]wsapi.FileHint, 0, len(hints))}
	paths := make([]string, 0, len(hints))
	for _, h := range hints {
		msg.Hints = append(msg.Hints, wsapi.FileHint{Path: h.Path, Style: h.Style, Directories: h.Directories})
		paths = append(paths, h.Path)
	}
	d.logAction(ctx, coach.ActionFileHintsApplied, map[string]any{"paths": paths})
	d.sess.RecordProgress(ctx, session.ProgressHintUsed, map[string]any{"kind": "file", "paths": paths})
	d.hub.Broadcast(wsapi.TypeExplorerHintFiles, msg)
	return nil, Ack{Success: true, Count: len(hints)}, nil
}

func (d *Deps) clearHints(context.Context, *mcp.CallToolRequest, EmptyIn) (*mcp.CallToolResult, Ack, error) {
	d.sess.ClearHints()
	d.hub.Broadcast(wsapi.TypeExplorerClearHints, wsapi.Empty{})
	return nil, Ack{Success: true}, nil
}

func or(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
