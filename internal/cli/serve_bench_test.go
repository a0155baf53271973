//go:build unix

package cli

import (
	"net/http"
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
