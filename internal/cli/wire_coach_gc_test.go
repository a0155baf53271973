package cli

import (
	"log/slog"
	"runtime/debug"
	"testing"
)

// serve raises Go's default GOGC and keeps any the user chose, 100 included.
func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	log := slog.New(slog.DiscardHandler)
	for _, tc := range []struct {
		env       string
		set, want int
	}{{"", 100, serveGCPercent}, {"100", 100, 100}, {"250", 250, 250}, {"off", -1, -1}} {
		debug.SetGCPercent(tc.set)
		tuneGC(log, tc.env)
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC=%q: got %d, want %d", tc.env, got, tc.want)
		}
	}
}
