package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
)

// Ending a session leaves its wrap-up pending; of concurrent claims one
// wins; resuming before the wrap-up clears it; a done wrap-up stays done.
func TestWrapUpStatus(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	sess, err := s.CreateSession(ctx, NewSession{ProjectDir: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	status := func() WrapUpStatus {
		t.Helper()
		st, err := s.SessionWrapUp(ctx, sess.ID)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := status(); st != WrapUpNone {
		t.Fatalf("active: %s", st)
	}
	s.SetSessionStatus(ctx, sess.ID, coach.SessionCompleted)
	if st := status(); st != WrapUpPending {
		t.Fatalf("ended: %s", st)
	}
	if list, _ := s.PendingWrapUps(ctx); len(list) != 1 || list[0].ID != sess.ID {
		t.Fatalf("pending = %v", list)
	}
	s.SetSessionStatus(ctx, sess.ID, coach.SessionActive)
	if st := status(); st != WrapUpNone {
		t.Fatalf("resumed: %s", st)
	}
	s.SetSessionStatus(ctx, sess.ID, coach.SessionAbandoned)
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, err := s.ClaimWrapUp(ctx, sess.ID); err != nil {
				t.Error(err)
			} else if ok {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || status() != WrapUpRunning {
		t.Fatalf("claims won = %d, status %s", wins.Load(), status())
	}
	if err := s.SetWrapUpStatus(ctx, sess.ID, WrapUpDone); err != nil {
		t.Fatal(err)
	}
	s.SetSessionStatus(ctx, sess.ID, coach.SessionActive)
	s.SetSessionStatus(ctx, sess.ID, coach.SessionCompleted)
	if st := status(); st != WrapUpDone {
		t.Errorf("after a second end: %s, want done", st)
	}
	if list, _ := s.PendingWrapUps(ctx); len(list) != 0 {
		t.Errorf("pending after done = %v", list)
	}
	if err := s.SetWrapUpStatus(ctx, "nope", WrapUpDone); err == nil {
		t.Error("unknown session accepted")
	}
}
