package actionlog

import (
	"context"

	"github.com/paige-dev/paige/internal/coach"
)

// ObserveBuffer feeds one accepted buffer:update into the buffer log state
// of the active session (FR-043, FR-044): path is the normalised path,
// prev the character count before the update (-1 when unknown; see
// workspace.BufferChange) and now the count after it. When the change is
// significant a buffer_significant_change row is written at once. Every
// update is published on the bus as an [EventBufferUpdate] event.
//
// With no active session nothing is recorded; the first such update warns
// once (EC-17) instead of flooding the log at typing speed. The returned
// error is the database's, for a significant change that could not be
// written.
func (l *Logger) ObserveBuffer(ctx context.Context, path string, prev, now int) error {
	l.mu.Lock()
	id := l.session
	if id == "" {
		l.mu.Unlock()
		if !l.warned.Swap(true) {
			l.log.Warn("buffer updates not logged: no active session", "path", path)
		}
		return nil
	}
	st := l.files[path]
	next, sig := observe(st, prev, now)
	if st == nil {
		st = new(fileState)
		l.files[path] = st
	}
	*st = next
	l.mu.Unlock()
	l.bus.Publish(Event{Type: EventBufferUpdate, SessionID: id, At: l.now().UTC(), Path: path, CharCount: now})
	if sig == nil {
		return nil
	}
	sig.Path = path
	return l.write(ctx, id, coach.ActionBufferSignificantChange, sig)
}
