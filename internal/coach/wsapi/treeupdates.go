package wsapi

import (
	"log/slog"
	"time"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// Defaults of [TreeUpdateOptions].
const (
	DefaultMaxTreeUpdates    = 64
	DefaultTreeUpdateWindow  = time.Second
	DefaultTreeRefreshSettle = 250 * time.Millisecond
	DefaultTreeRefreshDelay  = 2 * time.Second
)

// TreeReasonRefresh is the [FSTree] Reason of a tree sent after a burst.
const TreeReasonRefresh = "refresh"

// TreeUpdateOptions configure [ForwardTreeUpdates]. Tree is required.
type TreeUpdateOptions struct {
	// Tree scans the whole project tree for a refresh.
	Tree func() (*TreeNode, error)
	// MaxUpdates is the most fs:tree_update messages sent per Window. If
	// zero, DefaultMaxTreeUpdates.
	MaxUpdates int
	// Window is the period MaxUpdates counts over. If zero,
	// DefaultTreeUpdateWindow.
	Window time.Duration
	// Settle is how long the file system must stay quiet after a burst
	// before the refresh is sent. If zero, DefaultTreeRefreshSettle.
	Settle time.Duration
	// MaxDelay is the longest a refresh waits while changes keep coming.
	// If zero, DefaultTreeRefreshDelay.
	MaxDelay time.Duration
	// Log receives tree scan failures; nil discards.
	Log *slog.Logger
}

// ForwardTreeUpdates broadcasts the watcher's events (FR-059, scenario
// 5.6) until events is closed (the watcher's Close). Run it in its own
// goroutine. It panics if opts.Tree is nil (a wiring bug).
//
// # Bursts
//
// A few changes are sent as they come, one fs:tree_update {action, path}
// each. A burst — more than MaxUpdates events within Window, such as a git
// checkout of 10,000 files, or events the kernel dropped
// ([workspace.OpRescan]) — is not sent event by event: the forwarder stops
// sending updates and, once the file system has been quiet for Settle (or
// at the latest MaxDelay after the burst began), broadcasts the whole tree
// again as fs:tree {root, reason: "refresh"}. Clients replace their tree
// with it, as they do when a session starts. Messages per Window are thus
// at most MaxUpdates plus one tree per MaxDelay, whatever the size of the
// change.
//
// ForwardTreeUpdates also gives hub opts.Tree, which it scans for the
// refresh of a client too slow to take the updates (see [Hub]).
func ForwardTreeUpdates(hub *Hub, events <-chan []workspace.FileEvent, opts TreeUpdateOptions) {
	if opts.Tree == nil {
		panic("wsapi: ForwardTreeUpdates needs opts.Tree")
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	hub.setTree(opts.Tree) // a slow client's run of updates becomes a refresh
	th := newTreeThrottle(opts)
	var (
		timer *time.Timer
		fire  <-chan time.Time
	)
	for {
		select {
		case batch, ok := <-events:
			if !ok {
				if timer != nil {
					timer.Stop()
				}
				return // pending changes are dropped at shutdown (EC-16)
			}
			now := time.Now()
			for _, u := range th.add(batch, now) {
				hub.Broadcast(TypeFSTreeUpdate, u)
			}
			if d, ok := th.refreshIn(now); ok {
				if timer != nil {
					timer.Stop()
				}
				timer = time.NewTimer(d)
				fire = timer.C
			}
		case <-fire:
			fire = nil
			th.refreshed(time.Now())
			if hub.Len() == 0 {
				continue // nobody to tell; a client that connects gets fs:tree with its session
			}
			root, err := opts.Tree()
			if err != nil {
				opts.Log.Error("cannot scan project tree for a refresh", "err", err)
				continue
			}
			hub.Broadcast(TypeFSTree, FSTree{Root: root, Reason: TreeReasonRefresh})
		}
	}
}

// treeThrottle decides, for each batch of watcher events, whether to send
// them one by one or to fold them into a pending tree refresh. It is pure:
// the caller supplies the time and runs the timer.
type treeThrottle struct {
	max                      int
	window, settle, maxDelay time.Duration

	windowStart time.Time // start of the current counting window
	sent        int       // updates sent in the current window
	pending     bool      // a refresh is due: updates are held back
	burstStart  time.Time // when pending became true
}

func newTreeThrottle(o TreeUpdateOptions) *treeThrottle {
	t := &treeThrottle{max: o.MaxUpdates, window: o.Window, settle: o.Settle, maxDelay: o.MaxDelay}
	if t.max <= 0 {
		t.max = DefaultMaxTreeUpdates
	}
	if t.window <= 0 {
		t.window = DefaultTreeUpdateWindow
	}
	if t.settle <= 0 {
		t.settle = DefaultTreeRefreshSettle
	}
	if t.maxDelay <= 0 {
		t.maxDelay = DefaultTreeRefreshDelay
	}
	return t
}

// add returns the updates to send now for batch; none when the batch is
// part of a burst and goes into the pending refresh.
func (t *treeThrottle) add(batch []workspace.FileEvent, now time.Time) []FSTreeUpdate {
	if len(batch) == 0 {
		return nil
	}
	if now.Sub(t.windowStart) >= t.window {
		t.windowStart, t.sent = now, 0
	}
	if !t.pending && (t.sent+len(batch) > t.max || hasRescan(batch)) {
		t.pending, t.burstStart = true, now
	}
	if t.pending {
		return nil
	}
	t.sent += len(batch)
	out := make([]FSTreeUpdate, 0, len(batch))
	for _, ev := range batch {
		out = append(out, FSTreeUpdate{Action: string(ev.Action), Path: ev.Path})
	}
	return out
}

// refreshIn reports, after add, whether a refresh is pending and how long
// from now it is due: Settle after the latest events, but no later than
// MaxDelay after the burst began.
func (t *treeThrottle) refreshIn(now time.Time) (time.Duration, bool) {
	if !t.pending {
		return 0, false
	}
	d := t.settle
	if left := t.burstStart.Add(t.maxDelay).Sub(now); left < d {
		d = max(left, 0)
	}
	return d, true
}

// refreshed records that the tree was sent at now. Updates sent one by one
// start counting again.
func (t *treeThrottle) refreshed(now time.Time) {
	t.pending = false
	t.windowStart, t.sent = now, 0
}

func hasRescan(batch []workspace.FileEvent) bool {
	for _, ev := range batch {
		if ev.Action == workspace.OpRescan {
			return true
		}
	}
	return false
}
