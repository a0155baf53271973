package wsapi

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// EC-24: broadcasting with no clients is a no-op.
func TestBroadcastNoClients(t *testing.T) {
	h := NewHub(nil, 0)
	h.Broadcast(TypeExplorerClearHints, Empty{})
	if h.Len() != 0 {
		t.Errorf("Len = %d", h.Len())
	}
	h.Close()
	h.Close() // twice is fine
}

// A client that never reads is disconnected, as a last resort, once more
// events (messages that are not coalesced state) wait for it than its
// queue holds; a reading client receives every message meanwhile.
func TestSlowClientDoesNotBlockOthers(t *testing.T) {
	h := newHarness(t, Options{Hub: NewHub(nil, 4)})
	fast := h.dial(t)
	slow := h.dial(t)
	_ = slow // never reads
	waitFor(t, func() bool { return h.srv.Hub().Len() == 2 })

	const n = 300
	big := strings.Repeat("x", 64<<10) // fill the slow client's socket buffers
	for i := 0; i < n; i++ {
		// A broadcast only queues: it returns whatever the slow client does.
		// The bound is generous (a loaded machine), not a speed target.
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.srv.Hub().Broadcast(TypeCoachingMessage, CoachingMessage{Message: big, Type: "info"})
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("broadcast %d blocked behind the slow client", i)
		}
		if _, err := fast.read(10 * time.Second); err != nil {
			t.Fatalf("fast client message %d: %v", i, err)
		}
	}
	waitFor(t, func() bool { return h.srv.Hub().Len() == 1 })
}

// Close disconnects everyone with "going away" and refuses newcomers. The
// connected client gets the close frame, not a dropped connection (EOF),
// although the server's read loop is reading at the time.
func TestHubCloseDisconnects(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	waitFor(t, func() bool { return h.srv.Hub().Len() == 1 })
	readErr := make(chan error, 1)
	go func() { _, err := c.read(10 * time.Second); readErr <- err }()
	h.srv.Hub().Close()
	if h.srv.Hub().Len() != 0 {
		t.Errorf("Len = %d after Close", h.srv.Hub().Len())
	}
	select {
	case err := <-readErr:
		if websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Errorf("connected client read err = %v, want close 1001 (going away)", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("connected client not disconnected 15 s after Close")
	}
	ws, _, err := websocket.Dial(context.Background(), h.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _, err = ws.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("newcomer read err = %v, want going away", err)
	}
}
