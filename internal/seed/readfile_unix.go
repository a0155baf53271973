//go:build unix

package seed

import (
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"
)

// readFile is os.ReadFile (the same bytes and errors) for a file read once
// by a short process: opened with syscall.Open, the descriptor stays
// blocking and out of the runtime's poller, which os.Open would set up
// (epoll, an eventfd, a failed registration) for a regular file on Linux.
// The SessionStart hook reads the seed this way.
func readFile(path string) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path) // blocking: not registered with the poller
	defer f.Close()
	// The buffer as os.ReadFile sizes it: the stat size and one more byte,
	// at least 512 bytes, which a file claiming size 0 (in /proc) always
	// gets for each read.
	const minBuf = 512
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		st.Size = 0
	}
	size := minBuf
	if st.Size >= minBuf && st.Size < 1<<30 {
		size = int(st.Size) + 1
	}
	data := make([]byte, 0, size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if left := cap(data) - len(data); left == 0 || st.Size == 0 && left < minBuf {
			data = slices.Grow(data, minBuf)
		}
	}
}
