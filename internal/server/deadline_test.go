package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// deadlineServer serves, behind Serve's middleware with a short body
// deadline: /dribble (reads its body), /ws (echo), /sse (GET stream),
// /post-sse (POST: reads the JSON body, then streams) and /slow (reads the
// body, then waits for release before answering whether its context is
// still alive). Streams send one event per poke.
type deadlineServer struct {
	base     string
	cut      chan error    // /dribble's body read error
	bodyRead chan struct{} // /slow has read its body
	release  chan struct{}
	pokes    map[string]chan struct{} // per stream path
}

func startDeadlineServer(t *testing.T, timeout time.Duration) *deadlineServer {
	t.Helper()
	d := &deadlineServer{cut: make(chan error, 1), bodyRead: make(chan struct{}, 1),
		release: make(chan struct{}),
		pokes:   map[string]chan struct{}{"/sse": make(chan struct{}, 1), "/post-sse": make(chan struct{}, 1)}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /dribble", func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		d.cut <- err
		http.Error(w, "body too slow", http.StatusRequestTimeout)
	})
	mux.HandleFunc("GET /ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			typ, b, err := c.Read(context.Background())
			if err != nil || c.Write(context.Background(), typ, b) != nil {
				return
			}
		}
	})
	stream := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		for n := 0; ; n++ {
			select {
			case <-r.Context().Done():
				return
			case <-d.pokes[r.URL.Path]:
				fmt.Fprintf(w, "data: %d\n\n", n)
				http.NewResponseController(w).Flush()
			}
		}
	}
	mux.HandleFunc("GET /sse", stream)
	mux.HandleFunc("POST /post-sse", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		stream(w, r)
	})
	mux.HandleFunc("POST /slow", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		d.bodyRead <- struct{}{}
		<-d.release
		if err := r.Context().Err(); err != nil {
			http.Error(w, "context ended: "+err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, "alive")
	})
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, "127.0.0.1:0", mux, &Options{BodyReadTimeout: timeout, Ready: func(a net.Addr) { ready <- a }})
	}()
	d.base = "http://" + (<-ready).String()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return d
}

// openStream starts an SSE request and returns a reader of its events.
func (d *deadlineServer) openStream(t *testing.T, method, path, body string) *bufio.Reader {
	t.Helper()
	req, _ := http.NewRequest(method, d.base+path, strings.NewReader(body))
	if body == "" {
		req.Body = http.NoBody
	} else {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req) // no client timeout: the stream outlives it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d", method, path, resp.StatusCode)
	}
	return bufio.NewReader(resp.Body)
}

// nextEvent pokes the stream at path once and reads one event from rd.
func (d *deadlineServer) nextEvent(t *testing.T, path string, rd *bufio.Reader) {
	t.Helper()
	name := path
	d.pokes[path] <- struct{}{}
	got := make(chan error, 1)
	go func() {
		line, err := rd.ReadString('\n')
		if err == nil && !strings.HasPrefix(line, "data: ") {
			err = fmt.Errorf("unexpected line %q", line)
		}
		_, _ = rd.ReadString('\n')
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("%s: stream ended: %v", name, err)
		}
	case <-time.After(testWait):
		t.Fatalf("%s: no event within %v", name, testWait)
	}
}

// dribble sends headers promising a 100-byte body, then one byte, and
// waits for the server to give up on the body: the handler's read fails
// with a timeout and the client gets its 408.
func (d *deadlineServer) dribble(t *testing.T) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(d.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /dribble HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", strings.TrimPrefix(d.base, "http://"))
	select {
	case err := <-d.cut:
		var ne net.Error
		if err == nil || !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("dribbled body read: %v, want a timeout", err)
		}
	case <-time.After(testWait):
		t.Fatal("a dribbling client held its handler beyond the deadline")
	}
	_ = conn.SetReadDeadline(time.Now().Add(testWait))
	if status, _ := bufio.NewReader(conn).ReadString('\n'); !strings.Contains(status, "408") {
		t.Errorf("dribbler got %q, want 408", status)
	}
}

// A client that sends its headers and then dribbles the body is cut off
// after the body deadline; a WebSocket, an SSE stream (GET, and POST whose
// body was read) and a slow handler that already read its body all live
// on beyond it, their contexts intact.
func TestBodyDeadline(t *testing.T) {
	d := startDeadlineServer(t, 300*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()

	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(d.base, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	sse := d.openStream(t, "GET", "/sse", "")
	postSSE := d.openStream(t, "POST", "/post-sse", `{"a":1}`)
	slow := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest("POST", d.base+"/slow", strings.NewReader(`{"a":1}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := testHTTP.Do(req)
		if err != nil {
			slow <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		slow <- fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}()
	<-d.bodyRead

	d.dribble(t)

	// Everything opened before the dribbler is older than the deadline now.
	if err := ws.Write(ctx, websocket.MessageText, []byte("still here")); err != nil {
		t.Fatalf("websocket write: %v", err)
	}
	if _, b, err := ws.Read(ctx); err != nil || string(b) != "still here" {
		t.Fatalf("websocket echo: %q %v", b, err)
	}
	d.nextEvent(t, "/sse", sse)
	d.nextEvent(t, "/post-sse", postSSE)
	close(d.release)
	if got := <-slow; got != "200 alive" {
		t.Errorf("slow handler: %s, want 200 alive", got)
	}
}
