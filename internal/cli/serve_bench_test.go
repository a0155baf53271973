package cli

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
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
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) { benchGetBuffer(b, clients) })
	}
}

func benchGetBuffer(b *testing.B, clients int) {
	env := serveEnv(b)
	env["LOG_LEVEL"] = "warn"
	s := startServe(b, env)
	editor := s.ws(b)
	editor.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 1})
	editor.expect(wsapi.TypeSessionStarted, nil)
	editor.send(wsapi.TypeBufferUpdate, map[string]any{"path": "src/auth.ts", "content": "export const x = 1;\n"})
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
	b.ResetTimer()
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
}
