package wsapi

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/paige-dev/paige/internal/coach/session"
	"github.com/paige-dev/paige/internal/testenv"
)

// BenchmarkBufferUpdateIngestion measures buffer:update messages handled
// per second on one editor connection during a session (target ≥ 20,000/s):
// decode, path normalisation, buffer cache, buffer-logging state. cpu-ns/op
// is the process's CPU per message: the server's work and the test client's
// (masking and writing the frame).
func BenchmarkBufferUpdateIngestion(b *testing.B) {
	h := newHarness(b, Options{})
	if _, err := h.sess.Start(context.Background(), session.StartInput{}); err != nil {
		b.Fatal(err)
	}
	c := h.dial(b)
	base := strings.Repeat("line of code\n", 200)
	frames := make([][]byte, 64)
	for i := range frames {
		frames[i], _ = json.Marshal(map[string]any{"type": TypeBufferUpdate, "payload": map[string]any{
			"path": "main.go", "content": base + strings.Repeat("x", i), "cursorPosition": map[string]int{"line": 200, "column": i}}})
	}
	ctx := context.Background()
	b.SetBytes(int64(len(frames[0])))
	b.ResetTimer()
	start, cpu0 := time.Now(), testenv.CPUTime()
	for i := 0; b.Loop(); i++ {
		if err := c.ws.Write(ctx, websocket.MessageText, frames[i%len(frames)]); err != nil {
			b.Fatal(err)
		}
	}
	c.send(TypeConnectionHello, ConnectionHello{}) // barrier: all updates handled
	c.expect(TypeConnectionInit, nil)
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
	b.ReportMetric(float64((testenv.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
