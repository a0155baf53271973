package sse

import (
	"bufio"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"", map[string]any{"type": "done", "data": map[string]bool{"error": false}}, "data: {\"data\":{\"error\":false},\"type\":\"done\"}\n\n"},
		{"delta", map[string]string{"text": "line 1\nline 2"}, "event: delta\ndata: {\"text\":\"line 1\\nline 2\"}\n\n"},
		{"error", "x", "event: error\ndata: \"x\"\n\n"},
	}
	for _, tt := range tests {
		got, err := Encode(tt.name, tt.v)
		if err != nil || string(got) != tt.want {
			t.Errorf("Encode(%q, %v) got %q, %v; want %q", tt.name, tt.v, got, err, tt.want)
		}
	}
	if _, err := Encode("bad", make(chan int)); err == nil {
		t.Error("Encode of a channel: want an error")
	}
}

// TestStreamFlushesEachEvent shows the headers and every event reach the
// client while the handler is still running: the handler waits for the
// client to have read each one before writing the next.
func TestStreamFlushesEachEvent(t *testing.T) {
	read := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := Start(w)
		if err != nil {
			t.Error(err)
			return
		}
		<-read // the client saw the headers before any event
		for i := range 3 {
			if err := s.Event("n", i); err != nil {
				t.Error(err)
				return
			}
			<-read
		}
	}))
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
		"Connection": "keep-alive", "X-Accel-Buffering": "no"} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s: got %q, want %q", k, got, want)
		}
	}
	read <- struct{}{}
	br := bufio.NewReader(res.Body)
	for i := range 3 {
		frame := readFrame(t, br)
		if want := "event: n\ndata: " + string(rune('0'+i)) + "\n\n"; frame != want {
			t.Errorf("frame %d: got %q, want %q", i, frame, want)
		}
		read <- struct{}{}
	}
}

// readFrame reads up to and including the blank line ending a frame.
func readFrame(t *testing.T, br *bufio.Reader) string {
	t.Helper()
	var b strings.Builder
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("read frame: %v (so far %q)", err, b.String())
		}
		b.WriteString(line)
		if line == "\n" {
			return b.String()
		}
	}
}

// TestKeepAliveEvery: comments arrive while the stream is idle, events
// written at the same time stay whole (run with -race), and nothing is
// written once stop returns.
func TestKeepAliveEvery(t *testing.T) {
	rec := &recorder{ResponseRecorder: httptest.NewRecorder()}
	s, err := Start(rec)
	if err != nil {
		t.Fatal(err)
	}
	stop := s.KeepAliveEvery(time.Millisecond)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if err := s.Event("e", i); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(rec.body(), ": keep-alive\n\n") {
		if time.Now().After(deadline) {
			t.Fatal("no keep-alive within 30 s")
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // idempotent
	after := rec.body()
	frames := strings.Split(strings.TrimSuffix(after, "\n\n"), "\n\n")
	events := 0
	for _, f := range frames {
		switch {
		case f == ": keep-alive":
		case strings.HasPrefix(f, "event: e\ndata: ") && len(f) == len("event: e\ndata: 0"):
			events++
		default:
			t.Fatalf("torn or unknown frame %q", f)
		}
	}
	if events != 200 {
		t.Errorf("got %d events, want 200", events)
	}
	if err := s.KeepAlive(); err != nil || rec.body() != after+": keep-alive\n\n" {
		t.Errorf("a keep-alive written after stop: %v", err)
	}
}

// recorder is a goroutine-safe flushable ResponseWriter.
type recorder struct {
	mu sync.Mutex
	*httptest.ResponseRecorder
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ResponseRecorder.Write(p)
}

func (r *recorder) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ResponseRecorder.Flush()
}

func (r *recorder) body() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.Body.String()
}

// noFlush is a ResponseWriter that cannot flush.
type noFlush struct{ h http.Header }

func (n *noFlush) Header() http.Header         { return n.h }
func (n *noFlush) Write(p []byte) (int, error) { return len(p), nil }
func (n *noFlush) WriteHeader(int)             {}

func TestStartNeedsFlush(t *testing.T) {
	if _, err := Start(&noFlush{h: http.Header{}}); !errors.Is(err, http.ErrNotSupported) {
		t.Errorf("got %v, want http.ErrNotSupported", err)
	}
}

// gone is a ResponseWriter whose client went away.
type gone struct{ *httptest.ResponseRecorder }

func (gone) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestWriteAfterClientLeftFails(t *testing.T) {
	s, err := Start(gone{httptest.NewRecorder()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Event("x", 1); err == nil {
		t.Error("Event to a gone client: want an error")
	}
	if err := s.KeepAlive(); err == nil {
		t.Error("KeepAlive to a gone client: want an error")
	}
	stop := s.KeepAliveEvery(time.Millisecond) // ends by itself on the failed write
	stop()
}
