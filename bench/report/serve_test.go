package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Real output of mcpload and wsload, as the report reads it.
const (
	mcploadOut = `mcpload: closed loop, 16 workers, back to back, 3s, http://127.0.0.1:1/mcp paige_get_buffer path=src/auth.ts (buffer of 2500 bytes seeded)
calls      29004 in 3.00s = 9668 calls/s achieved
latency    p50 1.235ms  p90 3.584ms  p99 6.922ms  max 33.900ms
errors     0
client cpu 46.0 µs/call
server cpu 90.5 µs/call
`
	wsloadOut = `wsload: rate, 1 client, buffer:update of 2590 bytes, 300ms, ws://127.0.0.1:1/ws
messages   2286 in 0.96s = 2385 msg/s
server cpu 83.1 µs/msg
`
)

func TestToolFields(t *testing.T) {
	var cpu, p99, wsCPU, wsRate series
	if err := addFields(mcploadOut, 1.5, map[string]*series{"server cpu": &cpu, "p99": &p99, "ignored": nil}); err != nil {
		t.Fatal(err)
	}
	if cpu.med() != 90.5 || p99.med() != 6.922 || cpu.load() != 1.5 {
		t.Errorf("mcpload: cpu %v, p99 %v, load %v", cpu.vals, p99.vals, cpu.loads)
	}
	if rate, err := callsPerSecond(mcploadOut); err != nil || rate != 9668 {
		t.Errorf("calls/s: got %v, %v", rate, err)
	}
	if err := addFields(wsloadOut, 2, map[string]*series{"server cpu": &wsCPU, "=": &wsRate}); err != nil {
		t.Fatal(err)
	}
	if wsCPU.med() != 83.1 || wsRate.med() != 2385 {
		t.Errorf("wsload: cpu %v, rate %v", wsCPU.vals, wsRate.vals)
	}
	if _, err := field("nothing here", "server cpu"); err == nil {
		t.Error("missing field: no error")
	}
	if _, err := callsPerSecond("nothing"); err == nil {
		t.Error("missing calls/s: no error")
	}
}

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
