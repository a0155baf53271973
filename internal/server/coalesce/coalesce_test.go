package coalesce

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a net.Conn that records each Write, reads from in, and can
// fail its writes.
type recorder struct {
	net.Conn // nil: only the methods below are used
	mu       sync.Mutex
	writes   [][]byte
	in       io.Reader
	failWith error
	closed   bool
	shut     bool
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failWith != nil {
		return 0, r.failWith
	}
	r.writes = append(r.writes, bytes.Clone(p))
	return len(p), nil
}

func (r *recorder) Read(p []byte) (int, error) { return r.in.Read(p) }
func (r *recorder) Close() error               { r.closed = true; return nil }
func (r *recorder) CloseWrite() error          { r.shut = true; return nil }

func (r *recorder) SetDeadline(time.Time) error      { return nil }
func (r *recorder) SetWriteDeadline(time.Time) error { return nil }

// sent is everything written so far, and the number of writes.
func (r *recorder) sent() (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(bytes.Join(r.writes, nil)), len(r.writes)
}

// newConn is a conn over a recorder whose reads give in.
func newConn(in string) (*conn, *recorder) {
	rec := &recorder{in: strings.NewReader(in)}
	return &conn{Conn: rec}, rec
}

// response is a response of body length n, header first.
func response(n int) string {
	return "HTTP/1.1 200 OK\r\nContent-Length: " + itoa(n) + "\r\n\r\n" + strings.Repeat("b", n)
}

func itoa(n int) string {
	var b []byte
	for ; n > 0 || len(b) == 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// writeSplit writes s in pieces of the given lengths (the rest last).
func writeSplit(t *testing.T, c *conn, s string, pieces ...int) {
	t.Helper()
	for _, n := range pieces {
		n = min(n, len(s))
		if got, err := c.Write([]byte(s[:n])); got != n || err != nil {
			t.Fatalf("Write: %d, %v, want %d, nil", got, err, n)
		}
		s = s[n:]
	}
	if len(s) > 0 {
		if got, err := c.Write([]byte(s)); got != len(s) || err != nil {
			t.Fatalf("Write: %d, %v, want %d, nil", got, err, len(s))
		}
	}
}

func TestArmedResponseLeavesInOneWrite(t *testing.T) {
	const n = 5500
	resp := response(n)
	for _, tc := range []struct {
		name   string
		pieces []int
	}{
		{"as net/http writes it", []int{4096}},
		{"header end split", []int{strings.Index(resp, "\r\n\r\n") + 3, 100}},
		{"byte by byte header", []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{"one write", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, rec := newConn("")
			c.arm(n)
			writeSplit(t, c, resp, tc.pieces...)
			if got, writes := rec.sent(); got != resp || writes != 1 {
				t.Errorf("got %d bytes in %d writes, want the response in 1", len(got), writes)
			}
			// Disarmed: the next writes pass straight through.
			writeSplit(t, c, "more", 2)
			if got, writes := rec.sent(); got != resp+"more" || writes != 3 {
				t.Errorf("after the response: %d writes, want 3", writes)
			}
		})
	}
}

// Nothing stays held once net/http is done with the response (it sets
// the write deadline, closes or shuts down writing): a response cut short
// leaves as it was written. A read does not release it.
func TestHeldBytesLeaveBeforeReadAndClose(t *testing.T) {
	short := response(5000)[:3000]
	for _, tc := range []struct {
		name string
		then func(c *conn) error
	}{
		{"write deadline", func(c *conn) error { return c.SetWriteDeadline(time.Time{}) }},
		{"deadline", func(c *conn) error { return c.SetDeadline(time.Time{}) }},
		{"close", func(c *conn) error { return c.Close() }},
		{"close write", func(c *conn) error { return c.CloseWrite() }},
		{"read from", func(c *conn) error { _, err := c.ReadFrom(strings.NewReader("tail")); return err }},
		{"armed again", func(c *conn) error { c.arm(4000); return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, rec := newConn("next request")
			c.arm(5000)
			writeSplit(t, c, short, 1000)
			if _, err := c.Read(make([]byte, 4)); err != nil {
				t.Fatal(err)
			}
			if got, writes := rec.sent(); writes != 0 {
				t.Fatalf("an incomplete response was written (%d bytes) before %s", len(got), tc.name)
			}
			if err := tc.then(c); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Read(make([]byte, 4)); err != nil {
				t.Fatal(err)
			}
			if got, _ := rec.sent(); !strings.HasPrefix(got, short) {
				t.Errorf("after %s: sent %q…, want the held bytes first", tc.name, got[:min(len(got), 40)])
			}
		})
	}
	c, rec := newConn("")
	_ = c.Close()
	_ = c.CloseWrite()
	if !rec.closed || !rec.shut {
		t.Errorf("closed %v, shut %v: want both passed on", rec.closed, rec.shut)
	}
}

func TestUnarmedAndLimits(t *testing.T) {
	c, rec := newConn("")
	writeSplit(t, c, response(5000), 4096)
	if _, writes := rec.sent(); writes != 2 {
		t.Errorf("unarmed: %d writes, want 2 (passed through)", writes)
	}
	// A header that does not end within maxHeader is not held further.
	c, rec = newConn("")
	c.arm(5000)
	writeSplit(t, c, strings.Repeat("x", maxHeader+10), maxHeader)
	if got, writes := rec.sent(); writes != 1 || len(got) != maxHeader+10 {
		t.Errorf("endless header: %d bytes in %d writes, want all in 1", len(got), writes)
	}
	// A response that does not announce the armed length leaves as written.
	for _, resp := range []string{response(4999) + "x", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1388\r\n" + strings.Repeat("c", 5000)} {
		c, rec = newConn("")
		c.arm(5000)
		writeSplit(t, c, resp, 100, 4000)
		if got, writes := rec.sent(); writes != 3 || got != resp {
			t.Errorf("another response: %d bytes in %d writes, want %d in 3", len(got), writes, len(resp))
		}
	}
	// A failed write is reported by the write that completes the response.
	c, rec = newConn("")
	rec.failWith = errors.New("broken pipe")
	c.arm(5000)
	resp := response(5000)
	if n, err := c.Write([]byte(resp[:4096])); n != 4096 || err != nil {
		t.Errorf("held write: %d, %v", n, err)
	}
	if n, err := c.Write([]byte(resp[4096:])); n != 0 || err == nil {
		t.Errorf("completing write: %d, %v, want 0 and the error", n, err)
	}
}

func TestResponse(t *testing.T) {
	c, _ := newConn("")
	ctx := ConnContext(context.Background(), c)
	for _, tc := range []struct {
		n    int
		want bool
	}{{100, false}, {smallResponse, true}, {maxBody, true}, {maxBody + 1, false}} {
		c.held.Store(false)
		Response(ctx, tc.n)
		if got := c.held.Load(); got != tc.want {
			t.Errorf("Response(%d): armed %v, want %v", tc.n, got, tc.want)
		}
	}
	Response(context.Background(), 5000) // no connection: nothing to do
	if got := ConnContext(context.Background(), &net.TCPConn{}); got.Value(connKey{}) != nil {
		t.Error("ConnContext of a connection not from Listener carries it")
	}
}

// Whatever the writes, reads and arms, the bytes leave unchanged and in
// order, and an armed response written whole without a read in between
// leaves in one write.
func FuzzConn(f *testing.F) {
	f.Add([]byte{0, 40, 1, 200, 2, 3, 1, 255, 1, 255}, uint16(5000))
	f.Add([]byte{1, 10, 0, 1, 1, 255, 3, 1, 100}, uint16(3500))
	f.Add([]byte{2, 0, 1, 5}, uint16(60000))
	f.Fuzz(func(t *testing.T, ops []byte, body uint16) {
		resp := response(int(body))
		c, rec := newConn(strings.Repeat("r", 1000))
		var want strings.Builder
		armedAt, wholeArmed := -1, true
		rest := resp
		for i := 0; i+1 < len(ops); i += 2 {
			switch arg := int(ops[i+1]); ops[i] % 4 {
			case 0: // arm for the rest of the response
				if armedAt >= 0 {
					wholeArmed = false
				}
				c.arm(int(body))
				armedAt = want.Len()
			case 1: // write the next piece (arg*32 bytes)
				n := min(arg*32+1, len(rest))
				if n == 0 {
					break
				}
				if _, err := c.Write([]byte(rest[:n])); err != nil {
					t.Fatal(err)
				}
				want.WriteString(rest[:n])
				rest = rest[n:]
			case 2: // read, or net/http's end of a response
				if arg%2 == 0 {
					if _, err := c.Read(make([]byte, arg+1)); err != nil && err != io.EOF {
						t.Fatal(err)
					}
					break
				}
				if err := c.SetWriteDeadline(time.Time{}); err != nil {
					t.Fatal(err)
				}
				if armedAt >= 0 {
					wholeArmed = false
				}
			case 3: // write other bytes
				s := strings.Repeat("o", arg+1)
				if _, err := c.Write([]byte(s)); err != nil {
					t.Fatal(err)
				}
				want.WriteString(s)
				if armedAt >= 0 {
					wholeArmed = false
				}
			}
		}
		if rest != "" {
			if _, err := c.Write([]byte(rest)); err != nil {
				t.Fatal(err)
			}
			want.WriteString(rest)
		}
		c.Close()
		got, _ := rec.sent()
		if got != want.String() {
			t.Fatalf("sent %d bytes, want the %d written, in order", len(got), want.Len())
		}
		if armedAt == 0 && wholeArmed {
			if _, writes := rec.sent(); writes != 1 {
				t.Errorf("armed before its first byte and written whole: %d writes, want 1", writes)
			}
		}
	})
}
