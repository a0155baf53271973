package wsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadMessage(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513, 2600, 70000} {
		msg := bytes.Repeat([]byte("abcdefg"), n/7+1)[:n]
		for name, rd := range map[string]func() io.Reader{
			"whole":    func() io.Reader { return bytes.NewReader(msg) },
			"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(msg)) },
			"data+EOF": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(msg)) },
		} {
			got, err := readMessage(rd(), nil, 1<<20)
			if err != nil || !bytes.Equal(got, msg) {
				t.Errorf("%s %d bytes: got %d bytes, %v", name, n, len(got), err)
			}
		}
	}
	// Limit: as io.LimitReader, at most limit bytes; the caller sees that
	// the message was longer than limit-1.
	got, err := readMessage(strings.NewReader(strings.Repeat("x", 100)), nil, 11)
	if err != nil || len(got) != 11 {
		t.Errorf("limited: got %d bytes, %v; want 11", len(got), err)
	}
	// A buffer large enough is reused, not replaced.
	buf := make([]byte, 0, 4096)
	got, _ = readMessage(strings.NewReader("hello"), buf, 1<<20)
	if string(got) != "hello" || &got[:1][0] != &buf[:1][0] {
		t.Errorf("got %q in a new buffer, want it in buf", got)
	}
	// A read error is returned with what was read.
	got, err = readMessage(iotest.TimeoutReader(iotest.OneByteReader(strings.NewReader("ab"))), nil, 100)
	if err != iotest.ErrTimeout || string(got) != "a" {
		t.Errorf("got %q, %v; want a, timeout", got, err)
	}
}

// The read buffer is reused between messages: a later, shorter message
// must not see the earlier one's bytes, and a handler keeping its
// request's payload (as the model-driven handlers do) must keep an intact
// copy while later messages are read.
func TestReadBufferReuse(t *testing.T) {
	kept := make(chan json.RawMessage, 1)
	h := newHarness(t, Options{Extensions: Extensions{Explain: func(_ context.Context, req *Request) error {
		kept <- req.Payload
		return nil
	}}})
	c := h.dial(t)
	explain := map[string]any{"path": "main.go", "selectedText": strings.Repeat("s", 3000)}
	c.send(TypeBufferUpdate, map[string]any{"path": "main.go", "content": strings.Repeat("long ", 2000)})
	c.send(TypeUserExplain, explain) // read into the buffer the long message grew
	c.send(TypeBufferUpdate, map[string]any{"path": "main.go", "content": "short"})
	c.send(TypeConnectionHello, ConnectionHello{}) // barrier: all handled
	c.expect(TypeConnectionInit, nil)
	if b, ok, err := h.ws.Buffer("main.go"); err != nil || !ok || b.Content != "short" {
		t.Errorf("buffer = %q, %v, %v; want short", b.Content, ok, err)
	}
	want, _ := json.Marshal(explain)
	if got := <-kept; !bytes.Equal(got, want) {
		t.Errorf("kept payload changed:\n got %.80s…\nwant %.80s…", got, want)
	}
}

// buffer:update content reaches the buffer cache exactly as encoding/json
// decodes it, escapes, surrogates and invalid UTF-8 included.
func TestBufferUpdateDecodesLikeEncodingJSON(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	for _, content := range []string{
		`"a\nb\t\"q\" \u00e9 \ud83d\ude00 \ud83d lone \/"`,
		"\"bad \xff\xfe utf-8 \xed\xa0\x80\"",
		`"<&> plain"`,
	} {
		frame := `{"type":"buffer:update","payload":{"path":"main.go","content":` + content + `}}`
		if _, _, ok := fastBufferUpdate([]byte(frame)); !ok {
			t.Fatalf("%s does not take the fast path", frame)
		}
		c.sendRaw(frame)
		c.send(TypeConnectionHello, ConnectionHello{})
		c.expect(TypeConnectionInit, nil)
		var want string
		if err := json.Unmarshal([]byte(content), &want); err != nil {
			t.Fatal(err)
		}
		if b, _, _ := h.ws.Buffer("main.go"); b.Content != want {
			t.Errorf("buffer = %q, want %q", b.Content, want)
		}
	}
}
