package proc

import (
	"os"
	"strings"
	"testing"
)

// TestIsTmpfs checks IsTmpfs against the file system types the kernel
// lists in /proc/self/mounts, for every readable mount point (devtmpfs is
// a tmpfs to statfs).
func TestIsTmpfs(t *testing.T) {
	if IsTmpfs(t.TempDir() + "/missing") {
		t.Error("IsTmpfs of a missing directory = true")
	}
	data, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{} // mount point → type of the last mount there
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && !strings.Contains(f[1], `\`) {
			seen[f[1]] = f[2]
		}
	}
	checked := 0
	for dir, typ := range seen {
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		if got, want := IsTmpfs(dir), typ == "tmpfs" || typ == "devtmpfs"; got != want {
			t.Errorf("IsTmpfs(%s) = %v, mounted as %s", dir, got, typ)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no mount point checked")
	}
}
