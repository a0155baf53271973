package wsapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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
	frames := benchFrames()
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

// benchFrames returns the benchmarks' buffer:update frames: 2.6 KB each,
// 200 escaped newlines, distinct contents.
func benchFrames() [][]byte {
	base := strings.Repeat("line of code\n", 200)
	frames := make([][]byte, 64)
	for i := range frames {
		frames[i], _ = json.Marshal(map[string]any{"type": TypeBufferUpdate, "payload": map[string]any{
			"path": "main.go", "content": base + strings.Repeat("x", i), "cursorPosition": map[string]int{"line": 200, "column": i}}})
	}
	return frames
}

// BenchmarkWebSocketReadFloor is the floor of BufferUpdateIngestion: the
// same client and frames, and a server that only reads each message (the
// library's frame read and unmasking, the system calls) and does nothing
// with it. The
// difference between the two benchmarks' cpu-ns/op is the decoding and the
// handler.
func BenchmarkWebSocketReadFloor(b *testing.B) {
	done := make(chan int, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		for n := 0; ; n++ {
			_, rd, err := ws.Reader(context.Background())
			if err != nil {
				return
			}
			msg, err := io.ReadAll(rd)
			if err != nil {
				return
			}
			if string(msg) == "end" {
				done <- n
				return
			}
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.CloseNow()
	frames := benchFrames()
	b.SetBytes(int64(len(frames[0])))
	start, cpu0 := time.Now(), testenv.CPUTime()
	for i := 0; b.Loop(); i++ {
		if err := ws.Write(ctx, websocket.MessageText, frames[i%len(frames)]); err != nil {
			b.Fatal(err)
		}
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte("end")); err != nil {
		b.Fatal(err)
	}
	if n := <-done; n != b.N {
		b.Fatalf("server read %d messages, want %d", n, b.N)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
	b.ReportMetric(float64((testenv.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
