package trail

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn/trail/trailtest"
	"github.com/paige-dev/paige/internal/learn/transcript"
	"github.com/paige-dev/paige/internal/testenv"
)

// bigSession is a transcript of n tool calls cycling through builds,
// tests, failures, edits and MCP calls over n/50 files.
func bigSession(n int) string {
	s := trailtest.New("big", "/src/app")
	for i := range n {
		switch i % 6 {
		case 0:
			s.Bash("go test -count=1 ./...", "ok  \tapp\t0.3s", 0)
		case 1:
			s.Bash(fmt.Sprintf("cd web && pnpm run build 2>&1 | tail -%d", i%40), "built in 2s", 0)
		case 2:
			s.Bash("python -m pytest", "No module named pytest", 1)
		case 3:
			s.Edit(fmt.Sprintf("/src/app/internal/f%d.go", i%(n/50+1)))
		case 4:
			s.Tool("mcp__github__get_issue", map[string]any{"number": i}, strings.Repeat("issue text ", 20), false)
		default:
			s.Bash("uv run pytest -q", "12 passed", 0)
		}
	}
	return s.String()
}

// BenchmarkMine measures reading and mining a large transcript at two
// sizes; time per call stays flat (linear in the transcript).
func BenchmarkMine(b *testing.B) {
	for _, n := range []int{2_000, 20_000} {
		data := bigSession(n)
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu0 := testenv.CPUTime()
			for b.Loop() {
				turns, _, err := transcript.Read(strings.NewReader(data), nil)
				if err != nil {
					b.Fatal(err)
				}
				if len(Mine(turns)) == 0 {
					b.Fatal("nothing mined")
				}
			}
			reportCPU(b, cpu0, n)
		})
	}
}

// BenchmarkMineOnly measures the pure core alone on turns already read.
func BenchmarkMineOnly(b *testing.B) {
	for _, n := range []int{2_000, 20_000} {
		turns, _, err := transcript.Read(strings.NewReader(bigSession(n)), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := testenv.CPUTime()
			for b.Loop() {
				Mine(turns)
			}
			reportCPU(b, cpu0, n)
		})
	}
}

// reportCPU reports the CPU time per tool call since cpu0 (flat across
// sizes when mining is linear), and the wall time per call.
func reportCPU(b *testing.B, cpu0 time.Duration, calls int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(calls), "ns/call")
	if cpu := testenv.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(calls), "cpu-ns/call")
	}
}
