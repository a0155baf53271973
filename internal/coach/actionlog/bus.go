package actionlog

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paige-dev/paige/internal/coach"
)

// EventBufferUpdate is the Type of the bus event published for every
// accepted buffer:update. It is not an action type and is never written to
// action_log (updates are summarised instead, D23); the Observer counts these
// events to trigger an evaluation every few edits.
const EventBufferUpdate coach.ActionType = "buffer_update"

// Event is what the bus carries: one logged action, or one buffer update.
// Every subscriber receives the same value; Data is shared and must not be
// modified.
type Event struct {
	// Type is the action type, or EventBufferUpdate.
	Type      coach.ActionType
	SessionID string
	// Data is the action's JSON payload (nil when none). For
	// EventBufferUpdate it is nil; see Path and CharCount.
	Data json.RawMessage
	At   time.Time
	// ActionID is the action_log row id; empty for EventBufferUpdate.
	ActionID string
	// Path and CharCount are set for EventBufferUpdate.
	Path      string
	CharCount int
}

// DefaultSubscriberBuffer is the channel capacity [Bus.Subscribe] uses when
// asked for 0 or less.
const DefaultSubscriberBuffer = 256

// Bus is an in-process publish/subscribe hub for [Event]s. Publish never
// blocks: each subscriber has its own buffered channel, and an event that
// does not fit is dropped for that subscriber and counted. The zero Bus is
// ready to use; a Bus is safe for concurrent use.
type Bus struct {
	mu     sync.RWMutex
	subs   map[*Subscription]struct{}
	closed bool
}

// Subscription is one subscriber's view of a [Bus].
type Subscription struct {
	c       chan Event
	dropped atomic.Uint64
	bus     *Bus
	once    sync.Once
}

// C returns the channel events arrive on, closed by Unsubscribe or Bus.Close.
func (s *Subscription) C() <-chan Event { return s.c }

// Dropped returns how many events were dropped because C was full.
func (s *Subscription) Dropped() uint64 { return s.dropped.Load() }

// Unsubscribe is [Bus.Unsubscribe] for this subscription.
func (s *Subscription) Unsubscribe() { s.bus.Unsubscribe(s) }

// Subscribe registers a subscriber whose channel holds up to buffer events
// (DefaultSubscriberBuffer if buffer <= 0). Subscribing to a closed bus
// returns a subscription whose channel is already closed.
func (b *Bus) Subscribe(buffer int) *Subscription {
	if buffer <= 0 {
		buffer = DefaultSubscriberBuffer
	}
	s := &Subscription{c: make(chan Event, buffer), bus: b}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		s.once.Do(func() { close(s.c) })
		return s
	}
	if b.subs == nil {
		b.subs = make(map[*Subscription]struct{})
	}
	b.subs[s] = struct{}{}
	return s
}

// Unsubscribe removes s and closes its channel. It is idempotent.
func (b *Bus) Unsubscribe(s *Subscription) {
	b.mu.Lock()
	delete(b.subs, s)
	b.mu.Unlock()
	s.once.Do(func() { close(s.c) })
}

// Publish delivers e to every subscriber without blocking. Publishing on a
// closed bus does nothing.
func (b *Bus) Publish(e Event) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs {
		select {
		case s.c <- e:
		default:
			s.dropped.Add(1)
		}
	}
}

// Close unsubscribes everyone; later Publish calls do nothing and later
// Subscribe calls get a closed channel. It is idempotent.
func (b *Bus) Close() {
	b.mu.Lock()
	subs := b.subs
	b.subs, b.closed = nil, true
	b.mu.Unlock()
	for s := range subs {
		s.once.Do(func() { close(s.c) })
	}
}
