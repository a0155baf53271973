package mcpapi

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach/workspace"
	"github.com/paige-dev/paige/internal/testenv"
)

// discardWriter is a reusable http.ResponseWriter that keeps nothing but
// the status.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }

// BenchmarkGetBufferHandler is one paige_get_buffer call of a 2.5 KB
// buffer through Handler, in-process without a network or net/http's
// connection handling: the SDK's Streamable HTTP handler, the tool and its
// committed action-log row. cpu-ns/op is the process's CPU per call.
func BenchmarkGetBufferHandler(b *testing.B) {
	h := newHarness(b)
	content := strings.Repeat("const value = computeSomething(input);\n", 62)
	if _, err := h.ws.UpdateBuffer("src/auth.ts", content, workspace.Cursor{Line: 1}); err != nil {
		b.Fatal(err)
	}
	handler := h.handler
	sid := h.cs.ID()
	const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"paige_get_buffer","arguments":{"path":"src/auth.ts"}}}`
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:3000/mcp", nil)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	w := &discardWriter{h: http.Header{}}
	sr := strings.NewReader(body)
	b.ReportAllocs()
	cpu0 := testenv.CPUTime()
	b.ResetTimer()
	for range b.N {
		sr.Reset(body)
		req.Body = io.NopCloser(sr)
		w.code = 0
		clear(w.h)
		handler.ServeHTTP(w, req)
		if w.code != 0 && w.code != http.StatusOK {
			b.Fatalf("status %d", w.code)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(testenv.CPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
}
