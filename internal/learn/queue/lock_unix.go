//go:build unix

package queue

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// TryLock takes the queue's worker lock (an flock on <Dir>/worker.lock)
// without waiting. ok is false when another worker holds it. The lock dies
// with its process, so a crashed worker never blocks the queue.
func (q Queue) TryLock() (unlock func(), ok bool, err error) {
	if err := os.MkdirAll(q.Dir, 0o755); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(filepath.Join(q.Dir, "worker.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("lock learn queue: %w", err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, true, nil
}
