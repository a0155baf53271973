package knowledge

import (
	"errors"
	"fmt"

	"github.com/paige-dev/paige/internal/learn"
)

// ErrInactive is returned when an edit names a forgotten or superseded
// entry: what the user forgot stays forgotten.
var ErrInactive = errors.New("knowledge: entry is forgotten or superseded")

// Update applies change to the active entry whose id is (or uniquely starts
// with) id and appends the result as the entry's new version, under the
// store's lock (held across processes on Unix), so a concurrent edit, pin or
// forget is never lost. The new version is redacted and validated like any
// appended entry ([Store.Prepare]); its id cannot change. It returns the
// entry as stored, or ErrNotFound, ErrAmbiguous, ErrInactive, ErrInvalid or
// change's own error, leaving the store unchanged.
func (s *Store) Update(id string, change func(learn.Entry) (learn.Entry, error)) (learn.Entry, error) {
	unlock, err := s.lock()
	if err != nil {
		return learn.Entry{}, err
	}
	defer unlock()
	old, err := s.find(id)
	if err != nil {
		return old, err
	}
	if !old.Active() {
		return old, fmt.Errorf("%w: %s", ErrInactive, old.ID)
	}
	e, err := change(old)
	if err != nil {
		return old, err
	}
	e.ID, e.Forgotten, e.SupersededBy = old.ID, false, ""
	if e, err = s.Prepare(e); err != nil {
		return old, err
	}
	return e, appendLocked(s.EntriesPath(), []learn.Entry{e})
}

// SetPinned pins (or unpins) the active entry named by id; see [Store.Update].
func (s *Store) SetPinned(id string, pinned bool) (learn.Entry, error) {
	return s.Update(id, func(e learn.Entry) (learn.Entry, error) {
		e.Pinned = pinned
		return e, nil
	})
}
