package server

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// Linux's madvise advice values used here.
const (
	madvDontneed = 4  // MADV_DONTNEED: unmap these pages; a private file page comes back from the page cache
	madvPageout  = 21 // MADV_PAGEOUT (5.4+): reclaim these pages now
)

func releaseStartupPages() (int64, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("release startup pages: %w", err)
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return 0, fmt.Errorf("release startup pages: %w", err)
	}
	var advised int64
	for _, m := range readOnlyMappings(smaps, exe) {
		// A mapping whose pages are all the file's is unmapped (RSS drops)
		// and its pages stay in the page cache, so the next `paige serve`
		// does not read them again. One with private copies (relocated,
		// in a binary built otherwise) keeps them: they are paged out.
		advice := madvDontneed
		if m.anonymous {
			advice = madvPageout
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, uintptr(advice)); errno != 0 {
			return advised, fmt.Errorf("release startup pages: madvise: %w", errno)
		}
		advised += int64(m.end - m.start)
	}
	return advised, nil
}

// mapping is an address range of the process.
type mapping struct {
	start, end uintptr
	anonymous  bool // some of its pages are private copies, not the file's
}

// readOnlyMappings parses /proc/self/smaps (or maps, whose lines are its
// headers) and returns the mappings of the file at path that are not
// writable (code and read-only data), each marked anonymous when smaps
// counts private copies in it.
func readOnlyMappings(smaps []byte, path string) []mapping {
	var out []mapping
	inside := false // the last header was one of the mappings returned
	sc := bufio.NewScanner(bytes.NewReader(smaps))
	for sc.Scan() {
		// address perms offset dev inode pathname, or "Field: value kB"
		f := bytes.Fields(sc.Bytes())
		if len(f) > 0 && bytes.HasSuffix(f[0], []byte(":")) {
			if inside && string(f[0]) == "Anonymous:" && (len(f) < 2 || string(f[1]) != "0") {
				out[len(out)-1].anonymous = true
			}
			continue
		}
		inside = false
		if len(f) < 6 || string(f[5]) != path || len(f[1]) < 2 || f[1][1] == 'w' {
			continue
		}
		lo, hi, ok := bytes.Cut(f[0], []byte("-"))
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		out = append(out, mapping{start: uintptr(start), end: uintptr(end)})
		inside = true
	}
	return out
}
