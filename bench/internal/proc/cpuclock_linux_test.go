//go:build linux

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestCPUExactAgreesWithStat checks the nanosecond clock against the
// tick-counted /proc/<pid>/stat of a child that burns CPU: they count the
// same time, the ticks at 10 ms resolution.
func TestCPUExactAgreesWithStat(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("sh, which the test runs as its CPU-burning child: %v", err)
	}
	cmd := exec.Command(sh, "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; sleep 5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	var exact, ticks time.Duration
	for range 200 { // until the loop is over: the child sleeps, its CPU time stands still
		time.Sleep(20 * time.Millisecond)
		e, ok := CPUExact(pid)
		if !ok {
			t.Fatalf("CPUExact(%d): not readable", pid)
		}
		if e > 0 && e == exact {
			break
		}
		exact = e
	}
	ticks, ok := CPU(pid)
	if !ok {
		t.Fatal("CPU: not readable")
	}
	if exact <= 0 {
		t.Fatalf("CPUExact = %v, want > 0", exact)
	}
	// The tick count is sampled: it may be off by a few ticks either way.
	if d := exact - ticks; d > 50*time.Millisecond || d < -50*time.Millisecond {
		t.Errorf("CPUExact %v, /proc/<pid>/stat %v: more than 50 ms apart", exact, ticks)
	}
}

func TestCPUExactSelfAndMissing(t *testing.T) {
	if d, ok := CPUExact(os.Getpid()); !ok || d <= 0 {
		t.Errorf("CPUExact(self) = %v, %v", d, ok)
	}
	if _, ok := CPUExact(0); ok {
		t.Error("CPUExact(0): ok")
	}
	if _, ok := CPUExact(1 << 30); ok {
		t.Error("CPUExact of a pid beyond Linux's largest: ok")
	}
	for pid := maxPID; pid > maxPID-1000; pid-- {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			continue
		}
		if _, ok := CPUExact(pid); ok {
			t.Errorf("CPUExact(%d), no such process: ok", pid)
		}
		break
	}
}

func TestProcessCPUClock(t *testing.T) {
	// glibc: clock_getcpuclockid(pid) = ((~pid) << 3) | 2.
	for pid, want := range map[int]int32{1: -14, 4242: -33942, maxPID: -33554438} {
		if got := processCPUClock(pid); got != want {
			t.Errorf("processCPUClock(%d) = %d, want %d", pid, got, want)
		}
	}
}
