package hook

import (
	"bytes"
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/testenv"
)

// serveRaw listens on a loopback port and, for each connection, reads the
// request's head, sends it on heads and calls answer before closing the
// connection; it returns the port.
func serveRaw(tb testing.TB, answer func(c *net.TCPConn)) (port int, heads <-chan string) {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ch := make(chan string, 16)
	done := make(chan struct{})
	tb.Cleanup(func() { ln.Close(); <-done })
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { // not waited for: a silent answer ends with the test
				defer c.Close()
				var head []byte
				buf := make([]byte, 512)
				for !bytes.Contains(head, []byte("\r\n\r\n")) {
					n, err := c.Read(buf)
					if err != nil {
						break
					}
					head = append(head, buf[:n]...)
				}
				select {
				case ch <- string(head):
				default:
				}
				answer(c.(*net.TCPConn))
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, ch
}

// TestGetHealth: the probe sends one HTTP/1.0 GET /health and returns the
// peer's whole answer, up to the size limit; an answer over the limit, a
// reset, a peer that stays silent past the timeout, nothing listening and
// a cancelled context all give ok false.
func TestGetHealth(t *testing.T) {
	paige := "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + `{"status":"ok","uptime":1,"dataDirId":"0123456789abcdef"}` + "\n"
	limit := "HTTP/1.0 200 OK\r\n\r\n" + strings.Repeat("x", maxHealthResponse-len("HTTP/1.0 200 OK\r\n\r\n"))
	block := make(chan struct{})
	t.Cleanup(func() { close(block) }) // before the servers' clean-up: LIFO
	silent := func(*net.TCPConn) { <-block }
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		answer  func(*net.TCPConn)
		timeout time.Duration
		want    string
		ok      bool
	}{
		{"paige", func(c *net.TCPConn) { _, _ = c.Write([]byte(paige)) }, time.Minute, paige, true},
		{"at the limit", func(c *net.TCPConn) { _, _ = c.Write([]byte(limit)) }, time.Minute, limit, true},
		{"over the limit", func(c *net.TCPConn) { _, _ = c.Write([]byte(limit + "y")) }, time.Minute, "", false},
		{"closes at once", func(*net.TCPConn) {}, time.Minute, "", true},
		{"resets", func(c *net.TCPConn) { _ = c.SetLinger(0) }, time.Minute, "", false},
		{"silent", silent, 50 * time.Millisecond, "", false},
		{"half then silent", func(c *net.TCPConn) { _, _ = c.Write([]byte(paige[:20])); silent(c) }, 50 * time.Millisecond, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			port, heads := serveRaw(t, tt.answer)
			resp, ok := getHealth(ctx, port, tt.timeout)
			if ok != tt.ok || string(resp) != tt.want {
				t.Errorf("getHealth = %.100q, %v; want %.100q, %v", resp, ok, tt.want, tt.ok)
			}
			addr := "127.0.0.1:" + strconv.Itoa(port)
			if h := <-heads; h != "GET /health HTTP/1.0\r\nHost: "+addr+"\r\nAccept: application/json\r\n\r\n" {
				t.Errorf("request %q", h)
			}
		})
	}
	t.Run("nothing listening", func(t *testing.T) {
		_, port, _ := net.SplitHostPort(testenv.ClosedAddr(t))
		n, _ := strconv.Atoi(port)
		for _, p := range []int{n, 0} {
			if _, ok := getHealth(ctx, p, time.Minute); ok {
				t.Errorf("port %d answered", p)
			}
		}
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		port, _ := serveRaw(t, silent)
		ctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, ok := getHealth(ctx, port, time.Hour); ok {
			t.Error("a cancelled probe answered")
		}
	})
}
