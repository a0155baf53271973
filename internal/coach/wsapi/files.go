package wsapi

import (
	"context"
	"log/slog"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// BufferObserver receives every accepted buffer update for the buffer
// logging state; *actionlog.Logger satisfies it.
type BufferObserver interface {
	ObserveBuffer(ctx context.Context, path string, prev, now int) error
}

// WorkspaceFiles is the [Files] of a real server: the workspace for file
// I/O, buffers and the tree, and the action log's buffer tracking.
type WorkspaceFiles struct {
	WS      *workspace.Workspace
	Buffers BufferObserver // nil: buffer updates are not logged
	Log     *slog.Logger   // receives buffer logging failures; nil discards
}

var _ Files = WorkspaceFiles{}

// ReadFile reads a project file.
func (f WorkspaceFiles) ReadFile(_ context.Context, path string) (FileContent, error) {
	return f.WS.ReadFile(path)
}

// WriteFile saves a project file atomically and marks its buffer clean.
func (f WorkspaceFiles) WriteFile(_ context.Context, path, content string) (string, error) {
	p, err := f.WS.WriteFile(path, content)
	return p.Rel, err
}

// UpdateBuffer updates the buffer cache (path, content and cursor; the
// selections are not kept) and then the buffer logging state, which logs
// buffer_significant_change at once when the change is large.
func (f WorkspaceFiles) UpdateBuffer(ctx context.Context, b BufferUpdate) (string, error) {
	ch, err := f.WS.UpdateBuffer(b.Path, *b.Content, b.CursorPosition)
	if err != nil {
		return ch.Path, err
	}
	if f.Buffers != nil {
		// The buffer is updated; a failed log write is ours, not the editor's.
		if err := f.Buffers.ObserveBuffer(ctx, ch.Path, ch.PrevCharCount, ch.CharCount); err != nil && f.Log != nil {
			f.Log.Error("cannot log buffer change", "path", ch.Path, "err", err)
		}
	}
	return ch.Path, nil
}

// Tree scans the project tree.
func (f WorkspaceFiles) Tree(context.Context) (*TreeNode, error) { return f.WS.Tree() }
