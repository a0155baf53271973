package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// /health answers 200 JSON {"status":"ok","uptime":<seconds>};
// HandleHealthWith adds its fields, which cannot override status or uptime.
func TestHandleHealth(t *testing.T) {
	start := time.Unix(1000, 0)
	for _, c := range []struct {
		name string
		h    http.Handler
		want map[string]any
	}{
		{"plain", HandleHealth(start, func() time.Time { return start.Add(1500 * time.Millisecond) }),
			map[string]any{"status": "ok", "uptime": 1.5}},
		{"extra fields", HandleHealthWith(start, func() time.Time { return start.Add(2 * time.Second) },
			map[string]any{"dataDir": "/d", "status": "overridden?"}),
			map[string]any{"status": "ok", "uptime": 2.0, "dataDir": "/d"}},
	} {
		rec := httptest.NewRecorder()
		c.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if rec.Code != 200 || !maps.Equal(body, c.want) || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s: got %d %v, want 200 %v", c.name, rec.Code, body, c.want)
		}
	}
}

// Serve answers until ctx ends, then runs OnShutdown and the closers last first.
func TestServeLifecycle(t *testing.T) {
	var logs testenv.SyncBuffer
	var order []string
	var mu sync.Mutex
	step := func(name string) Closer {
		return Closer{Name: name, Close: func(context.Context) error {
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			if name == "b" {
				return errors.New("boom")
			}
			return nil
		}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	shutdownHook := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hi")) }), &Options{
			Logger:     slog.New(slog.NewTextHandler(&logs, nil)),
			Ready:      func(a net.Addr) { ready <- a },
			Closers:    []Closer{step("a"), step("b"), step("c")},
			OnShutdown: []func(){func() { close(shutdownHook) }},
		})
	}()
	addr := <-ready
	resp, err := http.Get("http://" + addr.String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve = %v, want nil", err)
	}
	<-shutdownHook
	if strings.Join(order, "") != "cba" {
		t.Errorf("closers ran %v, want c b a", order)
	}
	out := logs.String()
	for _, want := range []string{"shutting down", "http server stopped", `step=c`, `"shutdown step failed" step=b err=boom`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

// EC-01: a busy port is a clear error, and the closers still run.
func TestServePortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	closed := false
	err = Serve(context.Background(), ln.Addr().String(), http.NotFoundHandler(), &Options{
		Closers: []Closer{{Name: "db", Close: func(context.Context) error { closed = true; return nil }}},
	})
	if err == nil || !strings.Contains(err.Error(), "already in use") {
		t.Errorf("err = %v", err)
	}
	if !closed {
		t.Error("closers did not run")
	}
}

// A closer that ignores its deadline is abandoned after it (plus a grace),
// logged as failed, and the closers before it still run: shutdown never hangs.
func TestRunClosersAbandonsStuckStep(t *testing.T) {
	var logs testenv.SyncBuffer
	stuck := make(chan struct{})
	defer close(stuck)
	ran := false
	closers := []Closer{
		{Name: "db", Close: func(context.Context) error { ran = true; return nil }},
		{Name: "stuck", Close: func(context.Context) error { <-stuck; return nil }},
	}
	done := make(chan struct{})
	start := time.Now()
	go func() {
		RunClosers(context.Background(), slog.New(slog.NewTextHandler(&logs, nil)), closers, 50*time.Millisecond)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("RunClosers still waiting on a stuck closer after 30 s")
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("RunClosers returned after %v, before the step's deadline", d)
	}
	if !ran {
		t.Error("the closer before the stuck one did not run")
	}
	if out := logs.String(); !strings.Contains(out, `"shutdown step failed" step=stuck err="did not finish within 50ms; abandoned"`) {
		t.Errorf("log lacks the abandoned step:\n%s", out)
	}
}

// A request still open at shutdown sees its context cancelled with
// ErrShuttingDown as the cause, and may still write a final answer.
func TestShutdownCause(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			http.NewResponseController(w).Flush()
			close(started)
			<-r.Context().Done()
			if errors.Is(context.Cause(r.Context()), ErrShuttingDown) {
				w.Write([]byte("bye"))
			}
		}), &Options{Ready: func(a net.Addr) { ready <- a }})
	}()
	addr := <-ready
	resp, err := http.Get("http://" + addr.String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	<-started
	cancel()
	body, err := io.ReadAll(resp.Body)
	if err != nil || string(body) != "bye" {
		t.Errorf("got %q %v, want the final write", body, err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve = %v", err)
	}
}
