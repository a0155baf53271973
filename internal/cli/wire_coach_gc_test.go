package cli

import (
	"log/slog"
	"runtime/debug"
	"testing"
)

// serve raises Go's default GOGC and keeps one the user chose.
func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	log := slog.New(slog.DiscardHandler)
	for _, tc := range []struct{ set, want int }{{100, serveGCPercent}, {250, 250}, {-1, -1}} {
		debug.SetGCPercent(tc.set)
		tuneGC(log)
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC %d: got %d, want %d", tc.set, got, tc.want)
		}
	}
}
