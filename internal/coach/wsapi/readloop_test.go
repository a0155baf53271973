package wsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// recordingFiles records every buffer update, in order.
type recordingFiles struct {
	nopFiles
	updates chan BufferUpdate
}

func (f recordingFiles) UpdateBuffer(_ context.Context, b BufferUpdate) (string, error) {
	f.updates <- b
	return b.Path, nil
}

// dialRecording dials a server whose Files is files, with a harness's
// session behind it.
func dialRecording(t *testing.T, files recordingFiles) *client {
	h := newHarness(t, Options{})
	srv := New(Options{Files: files, Session: h.sess})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Hub().Close(); hs.Close() })
	return (&harness{srv: srv, url: "ws" + strings.TrimPrefix(hs.URL, "http")}).dial(t)
}

// Frames sent back to back are each handled once and in order.
func TestBackToBackFramesHandledInOrder(t *testing.T) {
	files := recordingFiles{updates: make(chan BufferUpdate, 1000)}
	c := dialRecording(t, files)
	const n = 600
	for i := range n {
		c.send(TypeBufferUpdate, map[string]any{"path": "main.go", "content": fmt.Sprintf("%d %s", i, strings.Repeat("x\n", 1300))})
	}
	c.send(TypeConnectionHello, ConnectionHello{})
	c.expect(TypeConnectionInit, nil)
	for i := range n {
		if got := *(<-files.updates).Content; !strings.HasPrefix(got, fmt.Sprintf("%d x\n", i)) || len(got) != len(fmt.Sprint(i))+1+2600 {
			t.Fatalf("update %d: got %.20q… (%d bytes)", i, got, len(got))
		}
	}
}

// Every field of the buffer:update payload reaches Files.UpdateBuffer as
// the client sent it. The payload is filled by reflection, so a field added
// to BufferUpdate is covered without touching this test, and any decoding
// that drops or alters one fails it (issue 24: a hand-written decoder once
// dropped new fields while every test passed).
func TestBufferUpdateEveryFieldReachesHandler(t *testing.T) {
	files := recordingFiles{updates: make(chan BufferUpdate, 1)}
	c := dialRecording(t, files)

	var sent BufferUpdate
	n := 0
	fillAll(t, reflect.ValueOf(&sent).Elem(), "BufferUpdate", &n)
	c.send(TypeBufferUpdate, sent)
	c.send(TypeConnectionHello, ConnectionHello{}) // barrier: the update is handled
	c.expect(TypeConnectionInit, nil)
	select {
	case got := <-files.updates:
		if diff := cmp.Diff(sent, got); diff != "" {
			t.Errorf("buffer:update payload changed on its way to the handler (-sent +got):\n%s", diff)
		}
	default:
		t.Fatal("the buffer:update never reached Files.UpdateBuffer")
	}
}

// fillAll sets every field reachable from v to a distinct non-zero value,
// and fails for a kind it does not know (extend it with the new field).
func fillAll(t *testing.T, v reflect.Value, name string, n *int) {
	t.Helper()
	*n++
	if v.Type() == reflect.TypeFor[json.RawMessage]() {
		v.SetBytes([]byte(fmt.Sprintf(`{"n":%d}`, *n)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("%s-%d", strings.ToLower(name), *n))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillAll(t, v.Elem(), name, n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillAll(t, v.Index(i), name, n)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			fillAll(t, v.Field(i), name+"."+f.Name, n)
		}
	default:
		t.Fatalf("fillAll: %s is a %s; teach fillAll to fill it", name, v.Kind())
	}
	if v.IsZero() {
		t.Fatalf("fillAll: %s is still zero", name)
	}
}
