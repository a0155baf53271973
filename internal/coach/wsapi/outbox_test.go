package wsapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach/workspace"
)

// msg is a test message: its name is its data, and its key and kind are
// what the hub gives a message of that type and payload.
func msg(typ string, payload any) outMsg {
	raw, _ := json.Marshal(payload)
	name := typ
	if m, ok := payload.(map[string]any); ok && m["v"] != nil {
		name = fmt.Sprintf("%s %v", typ, m["v"])
	}
	return outMsg{key: stateKey(typ, raw), update: typ == TypeFSTreeUpdate, data: []byte(name)}
}

// drain pops everything, by name ("refresh" for the placeholder).
func drain(b *outbox) []string {
	var out []string
	for m, ok := b.pop(); ok; m, ok = b.pop() {
		if m.data == nil {
			out = append(out, "refresh")
			continue
		}
		out = append(out, string(m.data))
	}
	return out
}

func TestOutbox(t *testing.T) {
	v := func(n int, kv ...any) map[string]any {
		m := map[string]any{"v": n}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name       string
		limit      int
		canRefresh bool
		push       []outMsg
		refused    int // index of the first push refused, -1 none
		want       []string
	}{
		{"events kept in order", 8, false, []outMsg{
			msg(TypeCoachingMessage, v(1)), msg(TypeFSSaveAck, v(2)), msg(TypeCoachingMessage, v(3)),
		}, -1, []string{"coaching:message 1", "fs:save_ack 2", "coaching:message 3"}},
		{"the latest state of each kind, at the back", 8, false, []outMsg{
			msg(TypeFSTree, v(1)), msg(TypeFSContent, v(1, "path", "a.go")), msg(TypeFSContent, v(1, "path", "b.go")),
			msg(TypeCoachingMessage, v(1)), msg(TypeFSTree, v(2)), msg(TypeFSContent, v(2, "path", "a.go")),
			msg(TypeObserverStatus, v(1)), msg(TypeObserverStatus, v(2)),
		}, -1, []string{"fs:content 1", "coaching:message 1", "fs:tree 2", "fs:content 2", "observer:status 2"}},
		{"an error replaces the list it stands for", 8, false, []outMsg{
			msg(TypeDashboardIssues, v(1)), msg(TypeDashboardIssuesError, v(2)),
		}, -1, []string{"dashboard:issues_error 2"}},
		{"a tree includes the updates before it, not after", 8, false, []outMsg{
			msg(TypeFSTreeUpdate, v(1)), msg(TypeFSTreeUpdate, v(2)), msg(TypeFSTree, v(3)), msg(TypeFSTreeUpdate, v(4)),
		}, -1, []string{"fs:tree 3", "fs:tree_update 4"}},
		{"state never fills the queue", 2, false, []outMsg{
			msg(TypeCoachingMessage, v(1)), msg(TypeCoachingMessage, v(2)),
			msg(TypeFSTree, v(1)), msg(TypeFSTree, v(2)), msg(TypeFSContent, v(3, "path", "a.go")),
		}, -1, []string{"coaching:message 1", "coaching:message 2", "fs:tree 2", "fs:content 3"}},
		{"too many events: refused", 2, true, []outMsg{
			msg(TypeCoachingMessage, v(1)), msg(TypeCoachingMessage, v(2)), msg(TypeCoachingMessage, v(3)),
		}, 2, []string{"coaching:message 1", "coaching:message 2"}},
		{"tree updates fold into a refresh", 2, true, []outMsg{
			msg(TypeFSTreeUpdate, v(1)), msg(TypeFSTree, v(2)), msg(TypeFSTreeUpdate, v(3)), msg(TypeFSTreeUpdate, v(4)),
			msg(TypeFSTreeUpdate, v(5)), msg(TypeFSTreeUpdate, v(6)), msg(TypeCoachingMessage, v(7)),
		}, -1, []string{"refresh", "coaching:message 7"}},
		{"an event makes room by folding the updates", 2, true, []outMsg{
			msg(TypeFSTreeUpdate, v(1)), msg(TypeCoachingMessage, v(2)), msg(TypeCoachingMessage, v(3)),
		}, -1, []string{"coaching:message 2", "refresh", "coaching:message 3"}},
		{"a tree after the refresh replaces it", 1, true, []outMsg{
			msg(TypeFSTreeUpdate, v(1)), msg(TypeFSTreeUpdate, v(2)), msg(TypeFSTree, v(3)), msg(TypeFSTreeUpdate, v(4)),
		}, -1, []string{"fs:tree 3", "fs:tree_update 4"}},
		{"without a tree scan, tree updates are events", 2, false, []outMsg{
			msg(TypeFSTreeUpdate, v(1)), msg(TypeFSTreeUpdate, v(2)), msg(TypeFSTreeUpdate, v(3)),
		}, 2, []string{"fs:tree_update 1", "fs:tree_update 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newOutbox(tt.limit)
			refused := -1
			for i, m := range tt.push {
				if !b.push(m, tt.canRefresh) && refused < 0 {
					refused = i
				}
			}
			if refused != tt.refused {
				t.Errorf("first refused push = %d, want %d", refused, tt.refused)
			}
			if diff := cmp.Diff(tt.want, drain(b)); diff != "" {
				t.Errorf("sent (-want +got):\n%s", diff)
			}
			if b.events != 0 || b.refresh {
				t.Errorf("drained outbox: events %d, refresh %v", b.events, b.refresh)
			}
		})
	}
}

// The refresh placeholder, once sent, lets tree updates through again.
func TestOutboxUpdatesAfterRefresh(t *testing.T) {
	b := newOutbox(1)
	for i := range 3 {
		b.push(msg(TypeFSTreeUpdate, map[string]any{"v": i}), true)
	}
	if got := drain(b); !cmp.Equal(got, []string{"refresh"}) {
		t.Fatalf("got %v, want one refresh", got)
	}
	b.push(msg(TypeFSTreeUpdate, map[string]any{"v": 9}), true)
	if got := drain(b); !cmp.Equal(got, []string{"fs:tree_update 9"}) {
		t.Errorf("after the refresh: got %v", got)
	}
}

// Issue 29: a client that stops reading while the server broadcasts many
// tree and file-content updates is not disconnected and, when it reads
// again, gets the latest tree and content. Before, its queue filled and it
// was disconnected (1008 "send queue full").
func TestSlowClientGetsLatestState(t *testing.T) {
	hub := NewHub(testLog(t), 4)
	hub.writeTimeout = 10 * time.Minute // the client stalls as long as the test needs
	h := newHarness(t, Options{Hub: hub})
	slow := h.dial(t)
	waitFor(t, func() bool { return hub.Len() == 1 })

	// Fill the socket buffers: the writer now blocks until slow reads.
	big := strings.Repeat("x", 1<<20)
	for i := range 8 { // 8 MiB: more than the socket buffers hold (4 MiB to send, 128 KiB to receive)
		hub.Broadcast(TypeFSContent, FileContent{Path: fmt.Sprintf("big%d.txt", i), Content: big})
	}
	const n = 1000
	for i := range n {
		hub.Broadcast(TypeFSTree, FSTree{Root: &TreeNode{Name: fmt.Sprint(i), Path: ".", Type: "directory"}})
		hub.Broadcast(TypeFSContent, FileContent{Path: "main.go", Content: fmt.Sprint(i)})
	}
	hub.Broadcast(TypeCoachingMessage, CoachingMessage{Message: "end", Type: "info"})

	var tree, content string
	got := 0
	for {
		env, err := slow.read(time.Minute)
		if err != nil {
			t.Fatalf("after %d messages: %v (the slow client was disconnected)", got, err)
		}
		got++
		switch env.Type {
		case TypeFSTree:
			var p FSTree
			_ = json.Unmarshal(env.Payload, &p)
			tree = p.Root.Name
		case TypeFSContent:
			var p FileContent
			_ = json.Unmarshal(env.Payload, &p)
			if p.Path == "main.go" {
				content = p.Content
			}
		}
		if env.Type == TypeCoachingMessage {
			break
		}
	}
	last := fmt.Sprint(n - 1)
	if tree != last || content != last {
		t.Errorf("latest state seen: tree %q, content %q; want %q, %q", tree, content, last, last)
	}
	t.Logf("%d messages delivered for %d broadcast", got, 8+2*n+1)
	slow.send(TypeConnectionHello, ConnectionHello{}) // still connected
	slow.expect(TypeConnectionInit, nil)
	if hub.Len() != 1 {
		t.Errorf("Len = %d, want 1", hub.Len())
	}
}

// A slow client's run of fs:tree_update messages becomes one fs:tree
// refresh of the tree as it is when the client catches up.
func TestSlowClientTreeUpdatesBecomeRefresh(t *testing.T) {
	hub := NewHub(testLog(t), 4)
	hub.writeTimeout = 10 * time.Minute
	h := newHarness(t, Options{Hub: hub})
	events := make(chan []workspace.FileEvent)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ForwardTreeUpdates(hub, events, TreeUpdateOptions{Tree: h.ws.Tree, MaxUpdates: 1 << 20})
	}()
	t.Cleanup(func() { close(events); <-done })
	slow := h.dial(t)
	waitFor(t, func() bool { return hub.Len() == 1 })

	big := strings.Repeat("x", 1<<20)
	for i := range 8 { // 8 MiB: more than the socket buffers hold (4 MiB to send, 128 KiB to receive)
		hub.Broadcast(TypeFSContent, FileContent{Path: fmt.Sprintf("big%d.txt", i), Content: big})
	}
	for i := range 200 {
		events <- []workspace.FileEvent{{Action: workspace.OpAdd, Path: fmt.Sprintf("new%d.go", i)}}
	}
	hub.Broadcast(TypeCoachingMessage, CoachingMessage{Message: "end", Type: "info"})
	var refreshed bool
	for {
		env, err := slow.read(time.Minute)
		if err != nil {
			t.Fatalf("the slow client was disconnected: %v", err)
		}
		if env.Type == TypeCoachingMessage {
			break
		}
		if env.Type == TypeFSTree {
			var p FSTree
			_ = json.Unmarshal(env.Payload, &p)
			refreshed = p.Reason == TreeReasonRefresh && p.Root != nil
		}
	}
	if !refreshed {
		t.Error("no fs:tree refresh reached the slow client")
	}
	if hub.Len() != 1 {
		t.Errorf("Len = %d, want 1", hub.Len())
	}
}
