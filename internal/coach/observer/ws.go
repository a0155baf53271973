package observer

import (
	"context"
	"errors"

	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// MuteHandler returns the observer:mute handler (plug it in as
// wsapi.Extensions.ObserverMute): it sets the mute toggle of the observed
// session, logs observer_muted and broadcasts observer:status (FR-144).
// Without an active session the message is ignored with a warning (EC-70).
func (m *Manager) MuteHandler() wsapi.Handler {
	return wsapi.Handle(func(ctx context.Context, _ *wsapi.Request, in wsapi.ObserverMute) error {
		if err := m.SetMuted(ctx, *in.Muted); errors.Is(err, ErrNoObserver) {
			m.log.Warn("observer:mute without an active session ignored")
		}
		return nil
	})
}
