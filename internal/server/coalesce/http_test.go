package coalesce

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingListener counts the writes of every connection it accepts.
type countingListener struct {
	net.Listener
	mu     sync.Mutex
	writes int
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, l: l}, nil
}

// count returns the writes so far.
func (l *countingListener) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writes
}

type countingConn struct {
	net.Conn
	l *countingListener
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.l.mu.Lock()
	c.l.writes++
	c.l.mu.Unlock()
	return c.Conn.Write(p)
}

// serve runs an http.Server with h behind Listener and ConnContext, and
// returns its address and its connections' write counter.
func serve(t *testing.T, h http.Handler) (string, *countingListener) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	srv := &http.Server{Handler: h, ConnContext: ConnContext}
	go func() { _ = srv.Serve(Listener(cl)) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String(), cl
}

// Through net/http: an answer of 5.5 KB whose handler calls Response
// leaves in one write per request on a kept-alive connection, and reads
// as it did; the same answer without Response takes two writes.
func TestNetHTTPResponseInOneWrite(t *testing.T) {
	body := strings.Repeat("0123456789", 550)
	addr, cl := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if r.URL.Path == "/one" {
			Response(r.Context(), len(body))
		}
		_, _ = io.WriteString(w, body)
	}))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for _, tc := range []struct {
		path       string
		wantWrites int
	}{{"/one", 1}, {"/one", 1}, {"/two", 2}, {"/one", 1}} {
		before := cl.count()
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", tc.path)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || string(got) != body || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d, %d bytes, %v", tc.path, resp.StatusCode, len(got), err)
		}
		if n := cl.count() - before; n != tc.wantWrites {
			t.Errorf("%s: %d writes, want %d", tc.path, n, tc.wantWrites)
		}
	}
}

// Streams, hijacked connections and responses whose handler fails before
// its announced length behave as without the wrapper.
func TestNetHTTPOtherResponsesPassThrough(t *testing.T) {
	release := make(chan struct{})
	addr, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/stream": // an event must arrive while the handler still runs
			Response(r.Context(), 5000) // armed by mistake: no Content-Length; the flush still sends
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "data: one\n\n")
			http.NewResponseController(w).Flush()
			<-release
		case "/hijack":
			conn, brw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			_, _ = io.WriteString(conn, "HTTP/1.1 101 Switching Protocols\r\n\r\n")
			line, _ := brw.ReadString('\n')
			_, _ = io.WriteString(conn, "echo "+line)
		case "/short", "/short-unarmed": // announces more than it writes, then panics
			w.Header().Set("Content-Length", "5000")
			if r.URL.Path == "/short" {
				Response(r.Context(), 5000)
			}
			_, _ = io.WriteString(w, strings.Repeat("s", 4500))
			panic(http.ErrAbortHandler)
		}
	}))
	get := func(path string) (*bufio.Reader, net.Conn) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		return bufio.NewReader(c), c
	}
	br, _ := get("/stream")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || line != "data: one\n" {
		t.Errorf("stream: %q, %v, want the first event while the handler runs", line, err)
	}
	close(release)

	br, c := get("/hijack")
	if line, err := br.ReadString('\n'); err != nil || !strings.HasPrefix(line, "HTTP/1.1 101") {
		t.Fatalf("hijack: %q, %v", line, err)
	}
	_, _ = br.ReadString('\n')
	fmt.Fprint(c, "ping\n")
	if line, err := br.ReadString('\n'); err != nil || line != "echo ping\n" {
		t.Errorf("hijacked echo: %q, %v", line, err)
	}

	// The bytes of a response cut short are those net/http sends without
	// the wrapper.
	var sent [2]string
	for i, path := range []string{"/short", "/short-unarmed"} {
		br, _ = get(path)
		all, _ := io.ReadAll(br)
		sent[i] = strings.ReplaceAll(string(all), dateLine(string(all)), "")
	}
	if sent[0] != sent[1] || !strings.Contains(sent[0], "sss") {
		t.Errorf("cut short: %d bytes sent armed, %d unarmed, want the same", len(sent[0]), len(sent[1]))
	}
}

// dateLine is the Date header line of a response, which differs between two.
func dateLine(resp string) string {
	i := strings.Index(resp, "Date: ")
	if i < 0 {
		return "\x00"
	}
	return resp[i : i+strings.Index(resp[i:], "\r\n")+2]
}
