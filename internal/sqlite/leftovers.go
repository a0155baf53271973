package sqlite

import (
	"os"
	"path/filepath"
	"strings"
)

// RemoveLeftovers removes the temporary databases that Paige versions up
// to issue 24 made beside path on a first start and left behind when
// killed during it: ".NAME.new-" followed by 16 hexadecimal digits, with
// its "-wal", "-shm" and "-journal" side files. Nothing else is touched.
// It reports how many files it removed; a directory that cannot be read
// removes nothing (the files only take space).
func RemoveLeftovers(path string) int {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return 0
	}
	removed := 0
	for _, e := range entries {
		if e.IsDir() || !isLeftover(e.Name(), base) {
			continue
		}
		if os.Remove(filepath.Join(dir, e.Name())) == nil {
			removed++
		}
	}
	return removed
}

// isLeftover reports whether name is a temporary database of base or one
// of its side files.
func isLeftover(name, base string) bool {
	rest, ok := strings.CutPrefix(name, "."+base+".new-")
	if !ok || len(rest) < 16 {
		return false
	}
	for _, c := range rest[:16] {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	switch rest[16:] {
	case "", "-wal", "-shm", "-journal":
		return true
	}
	return false
}
