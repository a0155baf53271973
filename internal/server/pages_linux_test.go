package server

import (
	"os"
	"strconv"
	"strings"
	"testing"
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
	want := []mapping{{0x400000, 0x4af000}, {0x4af000, 0x595000}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("readOnlyMappings = %#v, want %#v", got, want)
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
