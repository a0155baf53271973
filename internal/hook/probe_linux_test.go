//go:build linux

package hook

import (
	"bytes"
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// rawServer listens on a loopback port and answers each connection with
// answer(conn, request) once it has read the request's head; requests
// records the heads it read.
type rawServer struct {
	port     int
	mu       sync.Mutex
	requests []string
}

func serveRaw(tb testing.TB, answer func(c *net.TCPConn)) *rawServer {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &rawServer{port: ln.Addr().(*net.TCPAddr).Port}
	var conns sync.WaitGroup
	tb.Cleanup(func() { ln.Close(); conns.Wait() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer conns.Done()
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(5 * time.Second))
				var head []byte
				buf := make([]byte, 512)
				for !bytes.Contains(head, []byte("\r\n\r\n")) {
					n, err := c.Read(buf)
					if err != nil {
						return
					}
					head = append(head, buf[:n]...)
				}
				s.mu.Lock()
				s.requests = append(s.requests, string(head))
				s.mu.Unlock()
				answer(c.(*net.TCPConn))
			}()
		}
	}()
	return s
}

// answerWith writes resp and closes the connection.
func answerWith(resp []byte) func(*net.TCPConn) {
	return func(c *net.TCPConn) { _, _ = c.Write(resp) }
}

// checkGetHealth fails when getHealth and getHealthNet answer differently
// on port, or send different requests to srv.
func checkGetHealth(t *testing.T, ctx context.Context, port int, timeout time.Duration, srv *rawServer) (resp []byte, ok bool) {
	t.Helper()
	resp, ok = getHealth(ctx, port, timeout)
	want, wantOK := getHealthNet(ctx, port, timeout)
	if ok != wantOK || !bytes.Equal(resp, want) {
		t.Fatalf("port %d: getHealth = %.200q, %v; getHealthNet = %.200q, %v", port, resp, ok, want, wantOK)
	}
	if srv != nil {
		srv.mu.Lock()
		defer srv.mu.Unlock()
		if n := len(srv.requests); n == 2 && srv.requests[0] != srv.requests[1] {
			t.Fatalf("requests differ: %q vs %q", srv.requests[0], srv.requests[1])
		}
		srv.requests = nil
	}
	return resp, ok
}

// TestGetHealthMatchesNet: the raw-socket probe answers as the probe over
// package net for every kind of peer: Paige, other HTTP servers, an
// answer at and above the size limit, a peer that closes at once, resets,
// or stays silent (the timeout), nothing listening, and a context already
// cancelled or cancelled during the wait.
func TestGetHealthMatchesNet(t *testing.T) {
	paige := "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + `{"status":"ok","uptime":1,"dataDirId":"0123456789abcdef"}` + "\n"
	limit := "HTTP/1.0 200 OK\r\n\r\n" + strings.Repeat("x", maxHealthResponse-len("HTTP/1.0 200 OK\r\n\r\n"))
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		answer func(*net.TCPConn)
		ok     bool
	}{
		{"paige", answerWith([]byte(paige)), true},
		{"404", answerWith([]byte("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")), true},
		{"at the limit", answerWith([]byte(limit)), true},
		{"over the limit", answerWith([]byte(limit + "y")), false},
		{"far over the limit", answerWith(bytes.Repeat([]byte("z"), 1<<20)), false},
		{"closes at once", func(*net.TCPConn) {}, true},
		{"resets", func(c *net.TCPConn) { _ = c.SetLinger(0) }, false},
		{"silent", func(*net.TCPConn) { time.Sleep(300 * time.Millisecond) }, false},
		{"half then silent", func(c *net.TCPConn) { _, _ = c.Write([]byte(paige[:20])); time.Sleep(300 * time.Millisecond) }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := serveRaw(t, tt.answer)
			if _, ok := checkGetHealth(t, ctx, srv.port, 100*time.Millisecond, srv); ok != tt.ok {
				t.Errorf("ok = %v, want %v", ok, tt.ok)
			}
		})
	}
	t.Run("nothing listening", func(t *testing.T) {
		_, port, _ := net.SplitHostPort(testenv.ClosedAddr(t))
		n, _ := strconv.Atoi(port)
		for _, p := range []int{n, 0} {
			if _, ok := checkGetHealth(t, ctx, p, time.Second, nil); ok {
				t.Errorf("port %d answered", p)
			}
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		srv := serveRaw(t, answerWith([]byte(paige)))
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, ok := checkGetHealth(t, cancelled, srv.port, time.Second, nil); ok {
			t.Error("a cancelled probe answered")
		}
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		srv := serveRaw(t, func(*net.TCPConn) { time.Sleep(2 * time.Second) })
		ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		if _, ok := checkGetHealth(t, ctx, srv.port, time.Minute, nil); ok {
			t.Error("a cancelled probe answered")
		}
		if time.Since(start) > 30*time.Second {
			t.Error("the probe outlived its context")
		}
	})
}

// FuzzGetHealth: whatever a peer answers before closing, the raw-socket
// probe reads exactly what the probe over package net reads.
func FuzzGetHealth(f *testing.F) {
	f.Add([]byte("HTTP/1.0 200 OK\r\n\r\n{\"status\":\"ok\",\"dataDirId\":\"a\"}"))
	f.Add([]byte(""))
	f.Add([]byte("\r\n\r\n\x00\xff"))
	var mu sync.Mutex
	var answer []byte
	srv := serveRaw(f, func(c *net.TCPConn) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = c.Write(answer)
	})
	f.Fuzz(func(t *testing.T, resp []byte) {
		mu.Lock()
		answer = resp
		mu.Unlock()
		got, ok := checkGetHealth(t, context.Background(), srv.port, 5*time.Second, srv)
		if !ok || !bytes.Equal(got, resp) {
			t.Fatalf("answer %q read as %q, %v", resp, got, ok)
		}
	})
}
