//go:build unix

package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/wsapi"
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

// BenchmarkMCPGetBuffer measures paige_get_buffer round trips over
// Streamable HTTP during an active session (each call is also logged as
// mcp_tool_call), with 1 and with 16 concurrent MCP clients. Targets for 16
// clients: p50 ≤ 1 ms, p99 ≤ 5 ms, ≥ 5,000 calls/s. Client and server share
// the machine.
func BenchmarkMCPGetBuffer(b *testing.B) {
	for _, clients := range []int{1, 16} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			env := serveEnv(b)
			env["LOG_LEVEL"] = "warn"
			benchGetBuffer(b, startServe(b, env), clients, nil)
		})
	}
}

// BenchmarkMCPGetBufferProcess is BenchmarkMCPGetBuffer against the built
// binary in its own process, which adds srv_cpu_us/call: the server's CPU
// per call alone (from /proc; 0 where there is none).
func BenchmarkMCPGetBufferProcess(b *testing.B) {
	env := serveEnv(b)
	env["LOG_LEVEL"] = "warn"
	cmd, addr, _ := startServeProcess(b, b.TempDir(), env)
	pid := cmd.Process.Pid
	benchGetBuffer(b, &served{base: "http://" + addr}, 16, func() time.Duration { return procCPU(pid) })
}

// procCPU reads a process's user + system CPU time from /proc/<pid>/stat.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from 3 (state) on
	if len(fields) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(fields[11], 10, 64)   // field 14
	st, _ := strconv.ParseInt(fields[12], 10, 64)   // field 15
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ is 100 on Linux
}

func benchGetBuffer(b *testing.B, s *served, clients int, serverCPU func() time.Duration) {
	editor := s.ws(b)
	editor.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 1})
	editor.expect(wsapi.TypeSessionStarted, nil)
	editor.send(wsapi.TypeBufferUpdate, map[string]any{"path": "src/auth.ts", "content": "export const x = 1;\n"})
	editor.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{}) // barrier: the update is handled
	editor.expect(wsapi.TypeConnectionInit, nil)
	// Like Claude Code, keep connections alive: http.DefaultTransport keeps
	// only 2 idle connections per host, which would make 16 clients dial.
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * clients}}
	defer hc.CloseIdleConnections()
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = s.mcpClientWith(b, hc)
	}
	var buf mcpapi.BufferEntry
	callTool(b, sessions[0], "paige_get_buffer", mcpapi.PathIn{Path: "src/auth.ts"}, &buf)
	if !buf.Dirty {
		b.Fatalf("buffer not set up: %+v", buf)
	}

	lat := make([][]time.Duration, clients)
	var next atomic.Int64
	var wg sync.WaitGroup
	if serverCPU == nil {
		serverCPU = func() time.Duration { return 0 }
	}
	b.ResetTimer()
	cpu0, srv0 := cpuTime(), serverCPU()
	start := time.Now()
	for i := range clients {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			args := &mcp.CallToolParams{Name: "paige_get_buffer", Arguments: mcpapi.PathIn{Path: "src/auth.ts"}}
			for next.Add(1) <= int64(b.N) {
				t0 := time.Now()
				res, err := sessions[i].CallTool(context.Background(), args)
				lat[i] = append(lat[i], time.Since(t0))
				if err != nil || res.IsError {
					b.Errorf("call: %v %+v", err, res)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu, srv := cpuTime()-cpu0, serverCPU()-srv0
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) == 0 {
		return
	}
	pct := func(p float64) float64 { return float64(all[int(float64(len(all)-1)*p)].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50_ms")
	b.ReportMetric(pct(0.99), "p99_ms")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "calls/s")
	// CPU per call (client and server together): on a shared machine the
	// wall-clock numbers depend on the load, this does not.
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(all)), "cpu_us/call")
	if srv > 0 {
		b.ReportMetric(float64(srv.Microseconds())/float64(len(all)), "srv_cpu_us/call")
	}
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
