package wsapi

import (
	"context"

	"github.com/paige-dev/paige/internal/coach/observer"
)

// Muter is the Observer's mute toggle; *observer.Manager satisfies it.
type Muter interface {
	SetMuted(ctx context.Context, muted bool) error
}

var _ Muter = (*observer.Manager)(nil)

// ObserverMuteHandler handles observer:mute {muted} (plug it in as
// Extensions.ObserverMute): the Observer of the active session is muted or
// unmuted, which logs observer_muted and broadcasts observer:status
// (FR-144). Without an active session the message is ignored (EC-70; the
// Observer logs a warning).
func ObserverMuteHandler(m Muter) Handler {
	return Handle(func(ctx context.Context, _ *Request, in ObserverMute) error {
		_ = m.SetMuted(ctx, *in.Muted) // the only error is observer.ErrNoObserver, ignored by the spec
		return nil
	})
}

// ObserverNotifier broadcasts the Observer's notices to every editor as
// observer:status and observer:nudge; plug it in as
// observer.Options.Notifier.
type ObserverNotifier struct{ Hub *Hub }

var _ observer.Notifier = ObserverNotifier{}

// Status broadcasts observer:status.
func (n ObserverNotifier) Status(s observer.Status) {
	n.Hub.Broadcast(TypeObserverStatus, ObserverStatus(s))
}

// Nudge broadcasts observer:nudge.
func (n ObserverNotifier) Nudge(x observer.Nudge) {
	n.Hub.Broadcast(TypeObserverNudge, ObserverNudge(x))
}
