//go:build unix

package seed

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockSeed takes an exclusive advisory lock for read-modify-write changes of
// the seed at path, blocking until it is free. The lock file ends in .tmp so
// the seed repository's .gitignore covers it. The lock is released by
// unlock or when the process exits.
func lockSeed(path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("seed: lock: %w", err)
	}
	f, err := os.OpenFile(path+".lock.tmp", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("seed: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("seed: lock: %w", err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
