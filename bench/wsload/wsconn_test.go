package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// libraryServer serves /ws with the WebSocket library the server uses and
// runs handle on each connection.
func libraryServer(t *testing.T, handle func(ctx context.Context, c *websocket.Conn)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(1 << 20)
		handle(r.Context(), c)
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Messages of every length encoding (7-bit, 16-bit, 64-bit), sent one by
// one and pre-built in a batch, reach the library's server intact, and
// its echoes come back intact.
func TestWSConnEchoesEveryLength(t *testing.T) {
	u := libraryServer(t, func(ctx context.Context, c *websocket.Conn) {
		for {
			typ, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			if err := c.Write(ctx, typ, b); err != nil {
				return
			}
		}
	})
	ctx := testContext(t)
	c, err := dialWS(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.closeNow()
	var msgs [][]byte
	for _, n := range []int{0, 1, 125, 126, 127, 0xFFFF, 0x10000, 300_000} {
		msgs = append(msgs, bytes.Repeat([]byte{byte('a' + n%26)}, n))
	}
	for _, m := range msgs {
		if err := c.write(ctx, opText, m); err != nil {
			t.Fatal(err)
		}
		if got, err := c.read(ctx); err != nil || !bytes.Equal(got, m) {
			t.Fatalf("echo of %d bytes: got %d bytes, %v", len(m), len(got), err)
		}
	}
	for _, b := range batches(msgs) {
		if _, err := c.nc.Write(b.wire); err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs[:b.msgs] {
			if got, err := c.read(ctx); err != nil || !bytes.Equal(got, m) {
				t.Fatalf("batched echo of %d bytes: got %d bytes, %v", len(m), len(got), err)
			}
		}
	}
	if err := c.close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

// A ping from the server is answered while reading; a fragmented message
// is read whole.
func TestWSConnPingAndFragments(t *testing.T) {
	u := libraryServer(t, func(ctx context.Context, c *websocket.Conn) {
		go func() {
			if err := c.Ping(ctx); err != nil {
				return
			}
			w, err := c.Writer(ctx, websocket.MessageText)
			if err != nil {
				return
			}
			for _, part := range []string{"pon", "ged ", strings.Repeat("x", 10_000)} {
				_, _ = w.Write([]byte(part))
			}
			_ = w.Close()
		}()
		_, _, _ = c.Read(ctx) // reads the pong, then waits
	})
	ctx := testContext(t)
	c, err := dialWS(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.closeNow()
	got, err := c.read(ctx)
	if err != nil || string(got) != "ponged "+strings.Repeat("x", 10_000) {
		t.Fatalf("got %.20q (%d bytes), %v", got, len(got), err)
	}
}

// A close from the server ends a read with its status; a refused upgrade
// fails the dial.
func TestWSConnClosedAndRefused(t *testing.T) {
	u := libraryServer(t, func(ctx context.Context, c *websocket.Conn) {
		_ = c.Close(websocket.StatusPolicyViolation, "go away")
	})
	ctx := testContext(t)
	c, err := dialWS(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.closeNow()
	if _, err := c.read(ctx); err == nil || !strings.Contains(err.Error(), `status 1008 "go away"`) {
		t.Errorf("read after the server's close: %v", err)
	}
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	if _, err := dialWS(ctx, "ws"+strings.TrimPrefix(plain.URL, "http")); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("dial of a plain HTTP server: %v", err)
	}
}
