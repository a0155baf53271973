package server

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// madvPageout is Linux's MADV_PAGEOUT (5.4+): reclaim these pages now.
const madvPageout = 21

func releaseStartupPages() (int64, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("release startup pages: %w", err)
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, fmt.Errorf("release startup pages: %w", err)
	}
	var advised int64
	for _, m := range readOnlyMappings(maps, exe) {
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, madvPageout); errno != 0 {
			return advised, fmt.Errorf("release startup pages: madvise: %w", errno)
		}
		advised += int64(m.end - m.start)
	}
	return advised, nil
}

// mapping is an address range of the process.
type mapping struct{ start, end uintptr }

// readOnlyMappings parses /proc/self/maps and returns the mappings of the
// file at path that are not writable (code and read-only data).
func readOnlyMappings(maps []byte, path string) []mapping {
	var out []mapping
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// address perms offset dev inode pathname
		f := bytes.Fields(sc.Bytes())
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
		out = append(out, mapping{uintptr(start), uintptr(end)})
	}
	return out
}
