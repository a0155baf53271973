package testenv

import (
	"strings"
	"testing"
)

// The ready line is found however serve's output is split into writes, the
// workbench URL printed before it is kept, and everything reaches the log.
func TestReadyWriter(t *testing.T) {
	out := "level=INFO msg=\"paige ready\"\nPaige workbench: http://127.0.0.1:4100/?token=abc\n" +
		"Paige is ready on http://127.0.0.1:4100\n  MCP (Claude Code): http://127.0.0.1:4100/mcp\n"
	for _, size := range []int{1, 7, len(out)} {
		logs := &SyncBuffer{}
		ready := make(chan readyLines, 1)
		w := &readyWriter{out: logs, ready: ready}
		for i := 0; i < len(out); i += size {
			if _, err := w.Write([]byte(out[i:min(i+size, len(out))])); err != nil {
				t.Fatal(err)
			}
		}
		select {
		case got := <-ready:
			if want := (readyLines{base: "http://127.0.0.1:4100", workbench: "http://127.0.0.1:4100/?token=abc"}); got != want {
				t.Errorf("writes of %d bytes: got %+v, want %+v", size, got, want)
			}
		default:
			t.Errorf("writes of %d bytes: no ready line", size)
		}
		if logs.String() != out {
			t.Errorf("writes of %d bytes: log %q, want %q", size, logs.String(), out)
		}
	}
	w := &readyWriter{out: &strings.Builder{}, ready: make(chan readyLines, 1)}
	if _, err := w.Write([]byte("Paige workbench: http://x/?token=t\nno ready line yet\n")); err != nil || w.sent {
		t.Errorf("without the ready line: sent %v, err %v", w.sent, err)
	}
}
