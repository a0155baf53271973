//go:build unix

package cli

import (
	"net/http"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStartup measures `paige serve` from Run to the first answered
// GET /health (target ≤ 100 ms), in-process on a random port.
func BenchmarkStartup(b *testing.B) {
	env := serveEnv(b)
	env["LOG_LEVEL"] = "warn"
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		s := startServe(b, env)
		for {
			resp, err := http.Get(s.base + "/health")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
		}
		total += time.Since(start)
		if err := s.shutdown(b); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/ready")
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
