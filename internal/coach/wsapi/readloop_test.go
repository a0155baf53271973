package wsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// A later, shorter message does not see an earlier one's bytes, and a
// handler keeping its request's payload (as the model-driven handlers do)
// keeps an intact copy while later messages are read.
func TestKeptPayloadSurvivesLaterMessages(t *testing.T) {
	kept := make(chan json.RawMessage, 1)
	h := newHarness(t, Options{Extensions: Extensions{Explain: func(_ context.Context, req *Request) error {
		kept <- req.Payload
		return nil
	}}})
	c := h.dial(t)
	explain := map[string]any{"path": "main.go", "selectedText": strings.Repeat("s", 3000)}
	c.send(TypeBufferUpdate, map[string]any{"path": "main.go", "content": strings.Repeat("long ", 2000)})
	c.send(TypeUserExplain, explain)
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

// recordingFiles records the content of every buffer update, in order.
type recordingFiles struct {
	nopFiles
	contents chan string
}

func (f recordingFiles) UpdateBuffer(_ context.Context, path, content string, _ Position) (string, error) {
	f.contents <- content
	return path, nil
}

// Frames sent back to back are each handled once and in order.
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
