//go:build unix

package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/testenv"
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

// The MCP round-trip target (story 6): paige_get_buffer with 16 concurrent
// clients, p50 ≤ 1 ms, p99 ≤ 5 ms, ≥ 5,000 calls/s. Two drivers measure it,
// and both numbers are reported because they answer different questions:
//
//   - closed loop (BenchmarkMCPGetBuffer*): each client sends its next call
//     as soon as the previous one answers. This measures capacity
//     (calls/s), but by Little's law its latency is in-flight / throughput
//     (16 / 5,000 calls/s = 3.2 ms), so at 16 in flight p50 ≤ 1 ms would
//     need 16,000 calls/s: the closed loop cannot show both targets at once.
//   - open loop (BenchmarkMCPGetBufferOpenLoop*): the 16 clients together
//     issue 5,000 calls/s on a fixed schedule whatever the answers do, and
//     latency is measured from each call's scheduled time (so a stall that
//     delays later calls counts against them: no coordinated omission).
//     This is what the target means: latency at 5,000 calls/s from 16
//     clients, and whether that rate is sustained (calls/s achieved).
//
// Client and server share the machine's cores (as Claude Code and Paige
// do); cpu_us/call and srv_cpu_us/call do not depend on the load others
// put on the machine, the wall-clock numbers do. The in-process variants
// share one Go runtime, so serve's GC setting (wire_coach.go tuneGC)
// applies to their client too; the *Process variants keep the client at
// Go's default and are the ones to quote.

// targetRate is the target's aggregate call rate.
const targetRate = 5000

// BenchmarkMCPGetBuffer is the closed loop with 1 and with 16 clients,
// server in-process.
func BenchmarkMCPGetBuffer(b *testing.B) {
	for _, clients := range []int{1, 16} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			env := serveEnv(b)
			env["LOG_LEVEL"] = "warn"
			closedLoop(b, startServe(b, env), clients, nil)
		})
	}
}

// BenchmarkMCPGetBufferProcess is the closed loop with 16 clients against
// the built binary in its own process, which adds srv_cpu_us/call: the
// server's CPU per call alone (from /proc; absent where there is none).
func BenchmarkMCPGetBufferProcess(b *testing.B) {
	s, cpu := startBenchProcess(b)
	closedLoop(b, s, 16, cpu)
}

// BenchmarkMCPGetBufferOpenLoop is the open loop: 16 clients, 5,000 calls/s
// in total, server in-process. b.N is the number of calls (-benchtime
// 20000x runs 4 s at the target rate).
func BenchmarkMCPGetBufferOpenLoop(b *testing.B) {
	env := serveEnv(b)
	env["LOG_LEVEL"] = "warn"
	openLoop(b, startServe(b, env), 16, targetRate, nil)
}

// BenchmarkMCPGetBufferOpenLoopProcess is the open loop against the built
// binary in its own process, with srv_cpu_us/call, at the target rate and
// at a fifth of it (latency below saturation: when the machine cannot keep
// up with 5,000 calls/s, that run's latency is mostly queueing).
func BenchmarkMCPGetBufferOpenLoopProcess(b *testing.B) {
	for _, rate := range []int{targetRate / 5, targetRate} {
		b.Run(fmt.Sprintf("rate=%d", rate), func(b *testing.B) {
			s, cpu := startBenchProcess(b)
			openLoop(b, s, 16, rate, cpu)
		})
	}
}

// startBenchProcess starts the built binary. BENCH_SERVER_GOGC and
// BENCH_SERVER_GOMEMLIMIT, if set, are its GOGC and GOMEMLIMIT (to compare
// GC settings of the server alone; the client keeps the benchmark's).
//
// The client, standing in for Claude Code, runs at Go's default GOGC=100
// whatever an in-process benchmark before it left (serve sets its own).
func startBenchProcess(b *testing.B) (*served, func() time.Duration) {
	prev := debug.SetGCPercent(100)
	b.Cleanup(func() { debug.SetGCPercent(prev) })
	env := serveEnv(b)
	env["LOG_LEVEL"] = "warn"
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v := os.Getenv("BENCH_SERVER_" + k); v != "" {
			env[k] = v
		}
	}
	cmd, addr, _ := startServeProcess(b, b.TempDir(), env)
	pid := cmd.Process.Pid
	return &served{base: "http://" + addr}, func() time.Duration { return procCPU(pid) }
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

// getBufferSessions starts a coaching session with a dirty buffer over
// the editor WebSocket and connects clients MCP sessions (stateful, each
// with its Mcp-Session-Id, over kept-alive connections like Claude Code's).
func getBufferSessions(b *testing.B, s *served, clients int) []*mcp.ClientSession {
	editor := s.ws(b)
	editor.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 1})
	editor.expect(wsapi.TypeSessionStarted, nil)
	editor.send(wsapi.TypeBufferUpdate, map[string]any{"path": "src/auth.ts", "content": "export const x = 1;\n"})
	editor.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{}) // barrier: the update is handled
	editor.expect(wsapi.TypeConnectionInit, nil)
	// http.DefaultTransport keeps only 2 idle connections per host, which
	// would make 16 clients dial.
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * clients}}
	b.Cleanup(hc.CloseIdleConnections)
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = s.mcpClientWith(b, hc)
	}
	var buf mcpapi.BufferEntry
	callTool(b, sessions[0], "paige_get_buffer", mcpapi.PathIn{Path: "src/auth.ts"}, &buf)
	if !buf.Dirty {
		b.Fatalf("buffer not set up: %+v", buf)
	}
	return sessions
}

// getBuffer makes one call and fails the benchmark on any error.
func getBuffer(b *testing.B, cs *mcp.ClientSession, args *mcp.CallToolParams) bool {
	res, err := cs.CallTool(context.Background(), args)
	if err != nil || res.IsError {
		b.Errorf("call: %v %+v", err, res)
		return false
	}
	return true
}

var getBufferArgs = &mcp.CallToolParams{Name: "paige_get_buffer", Arguments: mcpapi.PathIn{Path: "src/auth.ts"}}

// closedLoop runs b.N calls from clients goroutines, each calling again as
// soon as it has its answer.
func closedLoop(b *testing.B, s *served, clients int, serverCPU func() time.Duration) {
	var next atomic.Int64
	callLoop(b, s, clients, serverCPU, func(*measure, int) (time.Time, bool) {
		return time.Now(), next.Add(1) <= int64(b.N)
	})
}

// openLoop runs b.N calls from clients goroutines at rate calls/s in
// total: client i's k-th call is due at start + (k·clients + i)/rate. A
// client still waiting for an answer when its next call is due sends it
// late, and that lateness counts in the call's latency, measured from when
// it was due (the corrected latency of wrk2); a call sent on time is
// measured from when it was sent, so the sleep's own overshoot does not
// count.
func openLoop(b *testing.B, s *served, clients, rate int, serverCPU func() time.Duration) {
	interval := time.Second / time.Duration(rate)
	var late atomic.Int64
	calls := make([]int, clients) // calls[i]: client i's calls so far, its own to touch
	callLoop(b, s, clients, serverCPU, func(m *measure, i int) (time.Time, bool) {
		n := calls[i]*clients + i
		calls[i]++
		if n >= b.N {
			return time.Time{}, false
		}
		from := m.start.Add(time.Duration(n) * interval) // due
		if wait := time.Until(from); wait > 0 {
			time.Sleep(wait)
			from = time.Now() // on time: the timer's oversleep is not the server's
		} else if wait < -interval*time.Duration(clients) {
			late.Add(1) // sent more than a whole round late
		}
		return from, true
	})
	b.ReportMetric(float64(rate), "offered_calls/s")
	b.ReportMetric(100*float64(late.Load())/float64(b.N), "late_%")
}

// callLoop measures clients goroutines calling paige_get_buffer on their
// own MCP sessions: client i calls while next(m, i) says so, each call's
// latency counted from the time next returns, and stops at its first
// failed call.
func callLoop(b *testing.B, s *served, clients int, serverCPU func() time.Duration, next func(m *measure, client int) (from time.Time, ok bool)) {
	sessions := getBufferSessions(b, s, clients)
	lat := make([][]time.Duration, clients)
	m := startMeasure(b, serverCPU)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			for {
				from, ok := next(m, i)
				if !ok {
					return
				}
				ok = getBuffer(b, sessions[i], getBufferArgs)
				lat[i] = append(lat[i], time.Since(from))
				if !ok {
					return
				}
			}
		})
	}
	wg.Wait()
	m.report(b, slices.Concat(lat...))
}

// measure holds the counters at the start of a measurement.
type measure struct {
	start      time.Time
	cpu0, srv0 time.Duration
	serverCPU  func() time.Duration
}

func startMeasure(b *testing.B, serverCPU func() time.Duration) *measure {
	if serverCPU == nil {
		serverCPU = func() time.Duration { return 0 }
	}
	b.ResetTimer()
	return &measure{start: time.Now(), cpu0: testenv.CPUTime(), srv0: serverCPU(), serverCPU: serverCPU}
}

// report stops the timer and reports p50/p99 latency, calls/s achieved,
// CPU per call of this process (client, plus server when in-process) and,
// when known, of the server process.
func (m *measure) report(b *testing.B, all []time.Duration) {
	elapsed := time.Since(m.start)
	cpu, srv := testenv.CPUTime()-m.cpu0, m.serverCPU()-m.srv0
	b.StopTimer()
	if len(all) == 0 {
		return
	}
	slices.Sort(all)
	pct := func(p float64) float64 { return float64(all[int(float64(len(all)-1)*p)].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50_ms")
	b.ReportMetric(pct(0.99), "p99_ms")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(all)), "cpu_us/call")
	if srv > 0 {
		b.ReportMetric(float64(srv.Microseconds())/float64(len(all)), "srv_cpu_us/call")
	}
}
