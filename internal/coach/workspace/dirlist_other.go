//go:build !linux

package workspace

import "os"

// read appends the entries of the directory at path to l: os.ReadDir's,
// copied.
func (d *dirLister) read(path string, l *dirListing) error {
	entries, err := os.ReadDir(path)
	for _, e := range entries {
		l.add([]byte(e.Name()), e.IsDir())
	}
	return err
}
