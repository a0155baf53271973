package mcphttp

import (
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

// BenchmarkParseCall measures parseCall alone on a paige_get_buffer-like
// request (the MCP handler benchmarks measure it inside a whole call),
// in CPU per operation.
func BenchmarkParseCall(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"paige_get_buffer",` +
		`"arguments":{"path":"src/main.go","range":{"start":1,"end":120},"note":"a \"quoted\" line\n"},"_meta":{"progressToken":7}}}`)
	start, n := testenv.CPUTime(), 0
	for b.Loop() {
		if _, ok := parseCall(body); !ok {
			b.Fatal("not parsed")
		}
		n++
	}
	b.ReportMetric(float64((testenv.CPUTime()-start).Nanoseconds())/float64(n), "cpu-ns/op")
}
