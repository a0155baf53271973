package workspace

import (
	"encoding/binary"
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// direntBufSize is the getdents64 buffer: a directory of a few hundred
// entries in one call.
const direntBufSize = 16 << 10

// Offsets in a linux_dirent64 record: d_ino (8), d_off (8), d_reclen (2),
// d_type (1), then the NUL-terminated name.
const (
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// read appends the entries of the directory at path to l, in the order
// the system gives them, failing as os.ReadDir does: open and getdents64
// errors as *os.PathError ("open", "readdirent"); an entry of unknown
// type is looked up with fstatat (gone: skipped; another error ends the
// listing with it, as "fstatat").
func (d *dirLister) read(path string, l *dirListing) error {
	fd, err := retryEINTR(func() (int, error) {
		return unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	if d.buf == nil {
		d.buf = make([]byte, direntBufSize)
	}
	for {
		n, err := retryEINTR(func() (int, error) { return unix.Getdents(fd, d.buf) })
		if err != nil {
			return &os.PathError{Op: "readdirent", Path: path, Err: err}
		}
		if n <= 0 {
			return nil
		}
		done, err := addRecords(fd, path, d.buf[:n], l)
		if done || err != nil {
			return err
		}
	}
}

// addRecords adds the entries of getdents64 records to l. It reports done
// when a record is malformed (os.ReadDir then stops with what it has).
func addRecords(fd int, path string, buf []byte, l *dirListing) (done bool, err error) {
	for len(buf) > 0 {
		if len(buf) < direntName {
			return true, nil
		}
		reclen := int(binary.NativeEndian.Uint16(buf[direntReclen:]))
		if reclen < direntName || reclen > len(buf) {
			return true, nil
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		name := rec[direntName:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if string(name) == "." || string(name) == ".." {
			continue
		}
		isDir := rec[direntType] == unix.DT_DIR
		if rec[direntType] == unix.DT_UNKNOWN {
			var st unix.Stat_t
			_, err := retryEINTR(func() (int, error) {
				return 0, unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW)
			})
			if errors.Is(err, unix.ENOENT) {
				continue // gone since it was listed
			}
			if err != nil {
				return true, &os.PathError{Op: "fstatat", Path: path, Err: err}
			}
			isDir = st.Mode&unix.S_IFMT == unix.S_IFDIR
		}
		l.add(name, isDir)
	}
	return false, nil
}

// retryEINTR calls f until it is not interrupted by a signal.
func retryEINTR(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}
