//go:build unix

package knowledge

import (
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
)

// lockDir takes an exclusive advisory lock on the store directory itself,
// blocking until it is free, so appends and tail repairs from several
// processes (the CLI, the hook worker, the server) never overlap. Locking
// the directory needs no file of its own. Earlier versions locked a .lock
// file in it, which each of them created before locking: where that file
// exists (a store such a version has written to), it is locked too, after
// the directory, so writers of both versions exclude each other.
func lockDir(dir string) (unlock func(), err error) {
	d, err := lockPath(dir, syscall.O_RDONLY|syscall.O_DIRECTORY)
	if err != nil {
		return nil, fmt.Errorf("knowledge: lock: %w", err)
	}
	f, err := lockPath(filepath.Join(dir, ".lock"), syscall.O_RDWR)
	if err != nil && !errors.Is(err, syscall.ENOENT) {
		release(d)
		return nil, fmt.Errorf("knowledge: lock: %w", err)
	}
	return func() {
		if f >= 0 {
			release(f)
		}
		release(d)
	}, nil
}

// lockPath opens path with mode and takes an exclusive flock on it,
// returning the descriptor (-1 on error).
func lockPath(path string, mode int) (int, error) {
	fd, err := syscall.Open(path, mode|syscall.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// release unlocks and closes fd.
func release(fd int) {
	_ = syscall.Flock(fd, syscall.LOCK_UN)
	_ = syscall.Close(fd)
}
