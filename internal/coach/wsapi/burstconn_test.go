package wsapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// scriptConn is a net.Conn whose reads return data in pieces of the
// scripted sizes (each cut to the reader's buffer), then err.
type scriptConn struct {
	net.Conn
	data   []byte
	pieces []int
	err    error
	reads  int
}

func (c *scriptConn) Read(p []byte) (int, error) {
	c.reads++
	if len(c.data) == 0 {
		return 0, c.err
	}
	n := len(c.data)
	if len(c.pieces) > 0 {
		n, c.pieces = min(n, max(1, c.pieces[0])), c.pieces[1:]
	}
	n = copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// readAllIn reads c to its error with reads of the given sizes (cycled).
func readAllIn(c io.Reader, sizes []int) ([]byte, error) {
	var out []byte
	buf := make([]byte, max(4096, slices.Max(append(sizes, 1))))
	for i := 0; ; i++ {
		size := 4096
		if len(sizes) > 0 {
			size = max(1, sizes[i%len(sizes)])
		}
		p := buf[:size]
		n, err := c.Read(p)
		out = append(out, p[:n]...)
		if err != nil {
			return out, err
		}
		if i > 1<<20 {
			return out, errors.New("no end")
		}
	}
}

func TestBurstConnDeliversEverythingInOrder(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 3*burstSize/16+7)
	for _, tc := range []struct {
		name          string
		pieces, sizes []int
	}{
		{"socket always full", nil, []int{4096}},
		{"small pieces", []int{100, 3000, 5}, []int{4096}},
		{"bursts then trickle", []int{burstSize, burstSize, 10, 4096, 1}, []int{4096, 1, 2600}},
		{"tiny reads", nil, []int{1, 3, 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &scriptConn{data: data, pieces: tc.pieces, err: io.EOF}
			c := &burstConn{Conn: sc}
			got, err := readAllIn(c, tc.sizes)
			if err != io.EOF || !bytes.Equal(got, data) {
				t.Fatalf("read %d bytes (want %d), equal %v, err %v", len(got), len(data), bytes.Equal(got, data), err)
			}
			if c.buf != nil {
				t.Error("buffer still borrowed at the end")
			}
		})
	}
}

func TestBurstConnBorrowsOnlyUnderLoad(t *testing.T) {
	// A short read (the socket drained) borrows nothing.
	sc := &scriptConn{data: make([]byte, 100), err: io.EOF}
	c := &burstConn{Conn: sc}
	if n, err := c.Read(make([]byte, 4096)); n != 100 || err != nil || c.buf != nil {
		t.Fatalf("short read: %d, %v, borrowed %v", n, err, c.buf != nil)
	}
	// A full read borrows; the next read is one burst, and the buffer goes
	// back once the burst was short and has been consumed.
	sc = &scriptConn{data: make([]byte, 4096+10_000), err: io.EOF}
	c = &burstConn{Conn: sc}
	if n, _ := c.Read(make([]byte, 4096)); n != 4096 || c.buf == nil {
		t.Fatalf("full read: %d, borrowed %v", n, c.buf != nil)
	}
	if n, _ := c.Read(make([]byte, 6000)); n != 6000 || sc.reads != 2 || c.buf == nil {
		t.Fatalf("burst: %d bytes, %d reads, borrowed %v", n, sc.reads, c.buf != nil)
	}
	if n, _ := c.Read(make([]byte, 6000)); n != 4000 || sc.reads != 2 || c.buf != nil {
		t.Fatalf("rest of the burst: %d bytes, %d reads, borrowed %v", n, sc.reads, c.buf != nil)
	}
}

func TestBurstConnReturnsDataBeforeError(t *testing.T) {
	boom := errors.New("boom")
	sc := &errAfterData{data: []byte("tail"), err: boom}
	c := &burstConn{Conn: sc, buf: burstBuffers.Get().(*[burstSize]byte)}
	p := make([]byte, 2)
	if n, err := c.Read(p); n != 2 || err != nil || string(p) != "ta" {
		t.Fatalf("first: %d %v %q", n, err, p)
	}
	if n, err := c.Read(p); n != 2 || err != nil || string(p) != "il" {
		t.Fatalf("second: %d %v %q", n, err, p)
	}
	if n, err := c.Read(p); n != 0 || err != boom {
		t.Fatalf("third: %d %v", n, err)
	}
	if c.buf != nil {
		t.Error("buffer still borrowed after the error")
	}
}

// errAfterData returns its data and err from the same Read.
type errAfterData struct {
	net.Conn
	data []byte
	err  error
}

func (c *errAfterData) Read(p []byte) (int, error) {
	n := copy(p, c.data)
	c.data = c.data[n:]
	return n, c.err
}

// FuzzBurstConn checks that whatever pieces the socket delivers and
// whatever sizes the reader asks for, the bytes come out as they went in
// and the borrowed buffer is back at the end. The data is a sequence that
// shows any byte lost, doubled or moved; the fuzzer varies its length.
func FuzzBurstConn(f *testing.F) {
	f.Add(uint32(5), []byte{1, 2, 3}, []byte{4})
	f.Add(uint32(9000), []byte{255, 0, 16}, []byte{16, 1})
	f.Add(uint32(3*burstSize+1), []byte{}, []byte{205})
	f.Fuzz(func(t *testing.T, length uint32, pieces, sizes []byte) {
		data := make([]byte, length%(4*burstSize))
		for i := range data {
			data[i] = byte(i % 251)
		}
		scale := func(b []byte, unit int) []int {
			out := make([]int, len(b))
			for i, v := range b {
				out[i] = int(v) * unit
			}
			return out
		}
		sc := &scriptConn{data: data, pieces: scale(pieces, 300), err: io.EOF}
		c := &burstConn{Conn: sc}
		got, err := readAllIn(c, scale(sizes, 20))
		if err != io.EOF || !bytes.Equal(got, data) {
			t.Fatalf("read %d of %d bytes, equal %v, err %v", len(got), len(data), bytes.Equal(got, data), err)
		}
		if c.buf != nil {
			t.Error("buffer still borrowed at the end")
		}
	})
}

// recordingFiles records the content of every buffer update, in order.
type recordingFiles struct {
	nopFiles
	contents chan string
}

func (f recordingFiles) UpdateBuffer(_ context.Context, path, content string, _ Position) (string, error) {
	f.contents <- content
	return path, nil
}

// Frames sent back to back, read in bursts when they queue up, are each
// handled once and in order.
func TestBackToBackFramesHandledInOrder(t *testing.T) {
	h := newHarness(t, Options{})
	files := recordingFiles{contents: make(chan string, 1000)}
	srv := New(Options{Files: files, Session: h.sess})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Hub().Close(); hs.Close() })
	c := (&harness{srv: srv, url: "ws" + strings.TrimPrefix(hs.URL, "http")}).dial(t)
	const n = 600
	for i := range n {
		c.send(TypeBufferUpdate, map[string]any{"path": "main.go", "content": fmt.Sprintf("%d %s", i, strings.Repeat("x\n", 1300))})
	}
	c.send(TypeConnectionHello, ConnectionHello{})
	c.expect(TypeConnectionInit, nil)
	for i := range n {
		if got := <-files.contents; !strings.HasPrefix(got, fmt.Sprintf("%d x\n", i)) || len(got) != len(fmt.Sprint(i))+1+2600 {
			t.Fatalf("update %d: got %.20q… (%d bytes)", i, got, len(got))
		}
	}
}
