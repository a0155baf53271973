package cli

import (
	"errors"
	"testing"
)

func TestPendingTakeAndCloseUntaken(t *testing.T) {
	t.Parallel()
	var closed []string
	closeFn := func(s string) error { closed = append(closed, s); return nil }

	taken := startPending(func() (string, error) { return "taken", nil })
	if v, err := taken.take(); v != "taken" || err != nil {
		t.Fatalf("take = %q, %v", v, err)
	}
	untaken := startPending(func() (string, error) { return "untaken", nil })
	failed := startPending(func() (string, error) { return "failed", errors.New("boom") })
	for _, p := range []*pending[string]{taken, untaken, failed} {
		p.closeUntaken(closeFn)
	}
	if len(closed) != 1 || closed[0] != "untaken" {
		t.Fatalf("closed %v, want only the untaken value that was opened", closed)
	}
}
