//go:build linux

package proc

import (
	"os"
	"testing"
)

// TestSelf reads this process's own /proc entries (every Linux has them).
func TestSelf(t *testing.T) {
	if _, ok := CPU(os.Getpid()); !ok {
		t.Error("CPU of this process: not readable")
	}
	if rss, ok := RSS(os.Getpid()); !ok || rss <= 0 {
		t.Errorf("RSS of this process = %d, %v", rss, ok)
	}
	if LoadAvg() < 0 {
		t.Error("LoadAvg: not readable")
	}
}
