package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteProject(t *testing.T) {
	dir, err := writeProject(filepath.Join(t.TempDir(), "p"), 250)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if err != nil || n != 250 {
		t.Errorf("%d files, %v; want 250", n, err)
	}
}

func TestRunRSSAndProc(t *testing.T) {
	if _, err := os.Stat(timeBin); err != nil {
		if os.Getenv("PAIGE_REQUIRE_SERVICES") == "1" { // CI installs it (scripts/ci/05-tools.sh)
			t.Fatalf("GNU time is required: %v", err)
		}
		t.Skip("GNU time not installed (PAIGE_REQUIRE_SERVICES=1 makes this a failure)")
	}
	var st procStats
	env := []string{"PATH=" + os.Getenv("PATH")}
	if err := runProc(t.Context(), &st, env, "", "/bin/true"); err != nil {
		t.Fatal(err)
	}
	if err := runRSS(t.Context(), &st, t.TempDir(), env, "", "/bin/true"); err != nil {
		t.Fatal(err)
	}
	if len(st.wall.vals) != 1 || len(st.cpu.vals) != 1 || len(st.rss.vals) != 1 {
		t.Fatalf("got %+v", st)
	}
	// /bin/true's own peak RSS is a few MiB, far below this test process's.
	if st.rss.vals[0] <= 0 || st.rss.vals[0] > 64 {
		t.Errorf("peak RSS of /bin/true = %v MiB", st.rss.vals[0])
	}
}
