package background

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// Close cancels running calls, waits for them, and later calls run at once
// with a cancelled context.
func TestClose(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := New()
		started, finished := make(chan struct{}), make(chan error, 1)
		g.Go(context.Background(), func(ctx context.Context) {
			close(started)
			<-ctx.Done()
			time.Sleep(20 * time.Millisecond) // the call takes a while to notice
			finished <- ctx.Err()
		})
		<-started
		if err := g.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-finished:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("got %v, want context.Canceled", err)
			}
		default:
			t.Fatal("Close returned before the running call finished")
		}
		ran := false
		g.Go(context.Background(), func(ctx context.Context) { ran = ctx.Err() != nil })
		if !ran {
			t.Error("Go after Close did not run at once with a cancelled context")
		}
	})
}

// Close gives up when its context ends first.
func TestCloseTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := New()
		release := make(chan struct{})
		g.Go(context.Background(), func(context.Context) { <-release })
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if err := g.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v, want DeadlineExceeded", err)
		}
		close(release)
		synctest.Wait()
	})
}

// The parent context ending cancels only that call.
func TestParentCancels(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := New()
		defer g.Close(context.Background())
		parent, cancel := context.WithCancel(context.Background())
		got := make(chan error, 1)
		g.Go(parent, func(ctx context.Context) { <-ctx.Done(); got <- ctx.Err() })
		cancel()
		if err := <-got; !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
		if g.ctx.Err() != nil {
			t.Error("a parent's end closed the group")
		}
	})
}
