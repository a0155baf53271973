package cli

import (
	"context"
	"log/slog"
	"testing"
)

func TestReleaseWhenSettled(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.DiscardHandler)
	calls := 0
	release := func() (int64, error) { calls++; return 1 << 20, nil }

	walked := make(chan struct{})
	close(walked)
	releaseWhenSettled(context.Background(), walked, release, log)
	if calls != 1 {
		t.Fatalf("released %d times after the walk, want 1", calls)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	releaseWhenSettled(ctx, make(chan struct{}), release, log)
	if calls != 1 {
		t.Fatalf("released while stopping before the walk ended (%d calls)", calls)
	}
}
