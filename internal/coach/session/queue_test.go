package session

import (
	"context"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
)

// collect gathers what queues up while it waits, and stops at a flush
// barrier, the closed queue, maxBatch or the tick.
func TestCollect(t *testing.T) {
	item := queued{sessionID: "s", t: coach.ActionTabSwitch}
	barrier := queued{done: make(chan struct{})}
	for _, tc := range []struct {
		name   string
		queued []queued
		close  bool
		tick   bool
		want   int // batch length, the first item included
	}{
		{"tick ends the wait", []queued{item, item}, false, true, 3},
		{"flush barrier ends it at once", []queued{item, barrier, item}, false, false, 3},
		{"closed queue ends it", []queued{item}, true, false, 2},
		{"maxBatch ends it", make([]queued, maxBatch+5), false, false, maxBatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := &actionQueue{in: make(chan queued, maxBatch+10)}
			for _, it := range tc.queued {
				q.in <- it
			}
			if tc.close {
				close(q.in)
			}
			wait := make(chan time.Time, 1)
			done := make(chan []queued)
			go func() { done <- q.collect([]queued{item}, wait) }()
			if tc.tick {
				select {
				case b := <-done:
					t.Fatalf("returned %d items before the tick", len(b))
				case <-time.After(20 * time.Millisecond):
				}
				wait <- time.Now()
			}
			select {
			case b := <-done:
				if len(b) != tc.want {
					t.Errorf("got %d items, want %d", len(b), tc.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("collect did not return")
			}
		})
	}
}

// An action logged alone is stored within the group-commit delay, without
// a Flush.
func TestLoneActionWrittenAfterDelay(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	s, _ := f.svc.Start(ctx, StartInput{})
	f.svc.Flush(ctx)
	if err := f.svc.Log(ctx, coach.ActionTabSwitch, nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		list, err := f.st.RecentActions(ctx, store.ActionQuery{SessionID: s.ID, Types: []coach.ActionType{coach.ActionTabSwitch}})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("got %d tab_switch actions after 5 s, want 1", len(list))
		}
		time.Sleep(time.Millisecond)
	}
}
