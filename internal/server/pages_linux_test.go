package server

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

func TestReadOnlyMappings(t *testing.T) {
	t.Parallel()
	maps := []byte(`00400000-004af000 r-xp 00000000 fe:00 123 /opt/paige
004af000-00595000 r--p 000af000 fe:00 123 /opt/paige
00595000-005a0000 rw-p 00195000 fe:00 123 /opt/paige
7f00-8f00 r-xp 00000000 fe:00 9 /usr/lib/libc.so.6
zz-yy r-xp 00000000 fe:00 123 /opt/paige
9000-8000 r-xp 00000000 fe:00 123 /opt/paige
c000000000-c004000000 rw-p 00000000 00:00 0
`)
	got := readOnlyMappings(maps, "/opt/paige")
	want := []mapping{{start: 0x400000, end: 0x4af000}, {start: 0x4af000, end: 0x595000}}
	if !slices.Equal(got, want) {
		t.Fatalf("readOnlyMappings = %#v, want %#v", got, want)
	}
}

func TestReadOnlyMappingsSmaps(t *testing.T) {
	t.Parallel()
	smaps := []byte(`00400000-004af000 r-xp 00000000 fe:00 123 /opt/paige
Size:                700 kB
Rss:                 600 kB
Anonymous:             0 kB
VmFlags: rd ex mr mw me dw
004af000-00595000 r--p 000af000 fe:00 123 /opt/paige
Size:                920 kB
Anonymous:             8 kB
VmFlags: rd mr mw me dw
00595000-005a0000 rw-p 00195000 fe:00 123 /opt/paige
Anonymous:            44 kB
7f00-8f00 r-xp 00000000 fe:00 9 /usr/lib/libc.so.6
Anonymous:             4 kB
005a0000-005b0000 r--p 001a0000 fe:00 123 /opt/paige
Anonymous:
`)
	got := readOnlyMappings(smaps, "/opt/paige")
	want := []mapping{{start: 0x400000, end: 0x4af000}, {start: 0x4af000, end: 0x595000, anonymous: true},
		{start: 0x5a0000, end: 0x5b0000, anonymous: true}}
	if !slices.Equal(got, want) {
		t.Fatalf("readOnlyMappings = %#v, want %#v", got, want)
	}
}

// cachedPages counts the pages of the file at path in the page cache
// (mincore on a mapping of it), or skips the test.
func cachedPages(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Skip(err)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(b)
	page := os.Getpagesize()
	vec := make([]byte, (len(b)+page-1)/page)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)),
		uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Skip(errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// TestReleaseStartupPagesKeepsPageCache: the pages given back stay in the
// page cache (the next start maps them again without reading the file);
// MADV_PAGEOUT evicted the ones only this process mapped.
func TestReleaseStartupPagesKeepsPageCache(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	before := cachedPages(t, exe)
	if _, err := ReleaseStartupPages(); err != nil {
		t.Fatal(err)
	}
	if after := cachedPages(t, exe); after < before {
		t.Errorf("%d of the executable's pages in the page cache before, %d after", before, after)
	}
}

// rssFileKiB is this process's resident file-backed memory.
func rssFileKiB(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}

func TestReleaseStartupPagesShrinksResidentCode(t *testing.T) {
	before := rssFileKiB(t)
	advised, err := ReleaseStartupPages()
	if err != nil {
		t.Fatal(err)
	}
	after := rssFileKiB(t)
	if advised <= 0 {
		t.Fatalf("advised %d bytes: the test binary's own code was not found in /proc/self/maps", advised)
	}
	// The test binary has touched megabytes of its code; what it needs to
	// read the status file again is a small part of it.
	if after >= before {
		t.Fatalf("RssFile %d KiB before, %d KiB after: nothing was released", before, after)
	}
	t.Logf("RssFile %d KiB → %d KiB (%d MiB of mappings advised)", before, after, advised>>20)
}
