package memory

import (
	"context"
	"log/slog"
)

// Nop is a Store with no backend: every call degrades (logging a warning)
// and IsMemoryAvailable is false. Use it when FromConfig fails and the
// server should run without memory.
type Nop struct {
	Logger *slog.Logger // nil: no warnings
}

var _ Store = Nop{}

// AddMemories adds nothing.
func (n Nop) AddMemories(ctx context.Context, sessionID, _ string, memories []Memory) (int, error) {
	if sessionID == "" {
		return 0, ErrNoSession
	}
	if len(memories) > 0 && n.Logger != nil {
		n.Logger.Warn("memory disabled — addMemories skipped", "memories", len(memories))
	}
	return 0, ctx.Err()
}

// QueryMemories finds nothing.
func (n Nop) QueryMemories(ctx context.Context, _ Query) ([]Result, error) {
	if n.Logger != nil {
		n.Logger.Warn("memory disabled — queryMemories answered []")
	}
	return nil, ctx.Err()
}

// IsMemoryAvailable reports false.
func (Nop) IsMemoryAvailable() bool { return false }

// Close does nothing.
func (Nop) Close() error { return nil }
