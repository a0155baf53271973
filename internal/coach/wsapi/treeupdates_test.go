package wsapi

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

func events(n int, op workspace.Op) []workspace.FileEvent {
	out := make([]workspace.FileEvent, n)
	for i := range out {
		out[i] = workspace.FileEvent{Action: op, Path: fmt.Sprintf("f%d", i)}
	}
	return out
}

// The throttle sends small batches as they come, folds a burst into one
// refresh due Settle after the last events (at most MaxDelay after the
// burst began), and counts again after the refresh and in a new window.
func TestTreeThrottle(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	th := newTreeThrottle(TreeUpdateOptions{MaxUpdates: 10, Window: time.Second, Settle: 100 * time.Millisecond, MaxDelay: 500 * time.Millisecond})
	step := func(name string, batch []workspace.FileEvent, now time.Time, wantSent int, wantDue time.Duration, wantPending bool) {
		t.Helper()
		if got := len(th.add(batch, now)); got != wantSent {
			t.Errorf("%s: sent %d, want %d", name, got, wantSent)
		}
		d, ok := th.refreshIn(now)
		if ok != wantPending || d != wantDue {
			t.Errorf("%s: refresh in %v (%v), want %v (%v)", name, d, ok, wantDue, wantPending)
		}
	}
	step("small", events(4, workspace.OpAdd), at(0), 4, 0, false)
	step("fits the budget", events(6, workspace.OpAdd), at(100), 6, 0, false)
	step("over the budget", events(1, workspace.OpAdd), at(200), 0, 100*time.Millisecond, true)
	step("burst goes on", events(1000, workspace.OpAdd), at(300), 0, 100*time.Millisecond, true)
	step("MaxDelay caps the wait", events(1000, workspace.OpAdd), at(650), 0, 50*time.Millisecond, true)
	step("past MaxDelay", events(1, workspace.OpAdd), at(800), 0, 0, true)
	th.refreshed(at(800))
	step("after the refresh", events(10, workspace.OpChange), at(900), 10, 0, false)
	step("budget spent", events(1, workspace.OpChange), at(1000), 0, 100*time.Millisecond, true)
	th.refreshed(at(1100))
	step("new window", events(3, workspace.OpUnlink), at(2200), 3, 0, false)
	step("lost events", []workspace.FileEvent{{Action: workspace.OpRescan, Path: "."}}, at(2300), 0, 100*time.Millisecond, true)
	step("empty batch", nil, at(2300), 0, 100*time.Millisecond, true)
}

// frameLog reads every frame of a client until the connection closes and
// keeps what the burst test needs.
type frameLog struct {
	mu       sync.Mutex
	updates  int
	trees    int
	seen     map[string]bool // file paths reported added or present in a refresh
	closeErr error
	others   []Envelope
}

func (l *frameLog) read(ws *websocket.Conn) {
	for {
		_, b, err := ws.Read(context.Background())
		if err != nil {
			l.mu.Lock()
			l.closeErr = err
			l.mu.Unlock()
			return
		}
		var env Envelope
		if json.Unmarshal(b, &env) != nil {
			continue
		}
		l.mu.Lock()
		switch env.Type {
		case TypeFSTreeUpdate:
			l.updates++
			var u FSTreeUpdate
			if json.Unmarshal(env.Payload, &u) == nil && u.Action == "add" {
				l.seen[u.Path] = true
			}
		case TypeFSTree:
			l.trees++
			var tr FSTree
			if json.Unmarshal(env.Payload, &tr) == nil && tr.Root != nil && tr.Reason == TreeReasonRefresh {
				addFiles(l.seen, tr.Root)
			}
		default:
			l.others = append(l.others, env)
		}
		l.mu.Unlock()
	}
}

func addFiles(seen map[string]bool, n *TreeNode) {
	if n.Type == workspace.NodeFile {
		seen[n.Path] = true
	}
	for _, c := range n.Children {
		addFiles(seen, c)
	}
}

// TestTreeUpdateBurst creates 10,000 files in a watched project, as a git
// checkout does, with a real editor connected. The editor stays connected
// (no 1008 "send queue full"), learns about every file, and gets a bounded
// number of frames: at most MaxUpdates updates per window plus refreshes,
// instead of one frame per file.
func TestTreeUpdateBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 10,000 files")
	}
	h := newHarness(t, Options{})
	wt, err := h.ws.Watch(nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { ForwardTreeUpdates(h.srv.Hub(), wt.Events(), TreeUpdateOptions{Tree: h.ws.Tree}); close(done) }()
	t.Cleanup(func() { wt.Close(); <-done })
	c := h.dial(t)
	log := &frameLog{seen: map[string]bool{}}
	go log.read(c.ws)

	const dirs, perDir = 20, 500
	var want []string
	start := time.Now()
	for d := range dirs {
		dir := filepath.Join(h.project, fmt.Sprintf("pkg%02d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range perDir {
			name := fmt.Sprintf("file%03d.go", f)
			if err := os.WriteFile(filepath.Join(dir, name), []byte("package p\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			want = append(want, fmt.Sprintf("pkg%02d/%s", d, name))
		}
	}
	covered := func() (int, error) {
		log.mu.Lock()
		defer log.mu.Unlock()
		n := 0
		for _, p := range want {
			if log.seen[p] {
				n++
			}
		}
		return n, log.closeErr
	}
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		n, err := covered()
		if err != nil {
			t.Fatalf("the editor was disconnected (status %d): %v", websocket.CloseStatus(err), err)
		}
		if n == len(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 120 s the editor knows %d of %d files", n, len(want))
		}
	}
	elapsed := time.Since(start)
	if h.srv.Hub().Len() != 1 {
		t.Fatalf("%d clients connected, want 1", h.srv.Hub().Len())
	}
	log.mu.Lock()
	updates, trees := log.updates, log.trees
	log.mu.Unlock()
	t.Logf("%d files: %d fs:tree_update and %d fs:tree frames in %v", len(want), updates, trees, elapsed)
	// One budget per window elapsed and one after each refresh.
	windows := int(elapsed/DefaultTreeUpdateWindow) + 1
	if limit := (windows + trees) * DefaultMaxTreeUpdates; updates > limit {
		t.Errorf("%d updates in %v, over %d", updates, elapsed, limit)
	}
	if updates+trees >= len(want)/10 {
		t.Errorf("%d frames for %d files: not coalesced", updates+trees, len(want))
	}
	if trees == 0 {
		t.Error("no refresh was sent after the burst")
	}
}
