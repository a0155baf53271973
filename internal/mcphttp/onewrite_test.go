package mcphttp

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paige-dev/paige/internal/server/coalesce"
)

// writeCounter counts the writes of the connections it accepts.
type writeCounter struct {
	net.Listener
	n atomic.Int64
}

func (l *writeCounter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countedConn{c, &l.n}, nil
}

type countedConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countedConn) Write(p []byte) (int, error) { c.n.Add(1); return c.Conn.Write(p) }

// A direct answer larger than net/http's 4 KiB buffer leaves in one write
// on a connection served through coalesce (as paige serve's are), and is
// the answer a connection without it gets.
func TestDirectAnswerInOneWrite(t *testing.T) {
	ts := newTestServer(t, true, 0)
	sid := ts.open(t)
	srv := httptest.NewUnstartedServer(ts.h)
	counter := &writeCounter{Listener: srv.Listener}
	srv.Listener = coalesce.Listener(counter)
	srv.Config.ConnContext = coalesce.ConnContext
	srv.Start()
	defer srv.Close()
	plain := httptest.NewServer(ts.h)
	defer plain.Close()

	text := strings.Repeat("a line of the buffer, twice in the answer\\n", 80)
	call := func(url string, id int) string {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"%s"}}}`, id, text)
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Host = "127.0.0.1:3000"
		for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			sessionIDHeader: sid, protocolVersionHeader: "2025-11-25"} {
			req.Header.Set(k, v)
		}
		c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := req.Write(c); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK || len(b) < 4096 {
			t.Fatalf("answer: %d, %d bytes, %v", resp.StatusCode, len(b), err)
		}
		return string(b)
	}
	before := ts.directN.Load()
	want := call(plain.URL, 5)
	writes := counter.n.Load()
	got := call(srv.URL, 5)
	if n := counter.n.Load() - writes; n != 1 {
		t.Errorf("the answer took %d writes, want 1", n)
	}
	if got != want {
		t.Errorf("answer through coalesce differs:\n%.300s\nwant\n%.300s", got, want)
	}
	if ts.directN.Load()-before != 2 {
		t.Error("the direct path did not answer both calls")
	}
}
