//go:build unix

package knowledge

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLockDir: the store's lock is a flock on its directory, which a run
// creates no file for; where an earlier version's .lock file exists, it is
// held too, so that version's writers wait.
func TestLockDir(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		dir := t.TempDir()
		if legacy {
			if err := os.WriteFile(filepath.Join(dir, ".lock"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		unlock, err := lockDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		busy := func(path string, mode int) bool {
			t.Helper()
			fd, err := syscall.Open(path, mode|syscall.O_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(fd)
			return errors.Is(syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB), syscall.EWOULDBLOCK)
		}
		if !busy(dir, syscall.O_RDONLY) {
			t.Errorf("legacy %v: the directory is not locked", legacy)
		}
		if legacy && !busy(filepath.Join(dir, ".lock"), syscall.O_RDWR) {
			t.Error("an existing .lock is not locked")
		}
		unlock()
		if busy(dir, syscall.O_RDONLY) {
			t.Errorf("legacy %v: the directory is still locked", legacy)
		}
		if _, err := os.Stat(filepath.Join(dir, ".lock")); legacy == errors.Is(err, os.ErrNotExist) {
			t.Errorf("legacy %v: .lock: %v", legacy, err)
		}
	}
}
