package wsapi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/session"
)

// Scenario 5.1: connection:hello → connection:init, metadata stored.
func TestHelloInit(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	c.sendRaw(`{"type":"connection:hello","payload":{"version":"1.2.0","platform":"darwin","windowSize":{"width":800,"height":600}},"id":"h1"}`)
	var init ConnectionInit
	env := c.expect(TypeConnectionInit, &init)
	if env.ID != "h1" {
		t.Errorf("id = %q, want h1", env.ID)
	}
	if init.ConnectionID == "" || len(init.Capabilities) == 0 || init.FeatureFlags == nil {
		t.Errorf("incomplete connection:init %+v", init)
	}
	if init.SessionID != "" {
		t.Errorf("sessionId = %q without a session", init.SessionID)
	}
	h.srv.hub.mu.Lock()
	var hello *ConnectionHello
	for conn := range h.srv.hub.conns {
		hello, _ = conn.Meta()
	}
	h.srv.hub.mu.Unlock()
	want := &ConnectionHello{Version: "1.2.0", Platform: "darwin", WindowSize: WindowSize{800, 600}}
	if diff := cmp.Diff(want, hello); diff != "" {
		t.Errorf("stored metadata (-want +got):\n%s", diff)
	}
}

// EC-22, EC-23, FR-060, FR-061: bad input answered, connection kept.
func TestBadInputKeepsConnection(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	tests := []struct {
		name, frame, code string
	}{
		{"malformed JSON (EC-22)", `{"type":`, CodeInvalidJSON},
		{"not an object", `"hello"`, CodeInvalidJSON},
		{"no type", `{"payload":{}}`, CodeInvalidMessage},
		{"invalid payload (EC-23)", `{"type":"file:open","payload":{"path":42}}`, CodeInvalidPayload},
		{"missing field (EC-23)", `{"type":"file:save","payload":{"path":"a.go"}}`, CodeInvalidPayload},
		{"payload of wrong kind", `{"type":"buffer:update","payload":[1]}`, CodeInvalidPayload},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.sendRaw(tt.frame)
			var e ConnectionError
			c.expect(TypeConnectionError, &e)
			if e.Code != tt.code || e.Message == "" {
				t.Errorf("got %+v, want code %s with a message", e, tt.code)
			}
		})
	}
	// Unknown type: ignored, and the connection still answers.
	c.send("nonsense:type", map[string]any{})
	c.send(TypeConnectionHello, ConnectionHello{Version: "x"})
	c.expect(TypeConnectionInit, nil)
}

// Oversized messages are answered with MESSAGE_TOO_LARGE; the connection stays.
func TestOversizedMessage(t *testing.T) {
	h := newHarness(t, Options{MaxMessageBytes: 1024})
	c := h.dial(t)
	c.send(TypeBufferUpdate, map[string]any{"path": "a.go", "content": strings.Repeat("x", 2000)})
	var e ConnectionError
	c.expect(TypeConnectionError, &e)
	if e.Code != CodeMessageTooLarge {
		t.Errorf("code = %s, want %s", e.Code, CodeMessageTooLarge)
	}
	c.send(TypeConnectionHello, ConnectionHello{})
	c.expect(TypeConnectionInit, nil)
}

func TestBinaryFrameRejected(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	if err := c.ws.Write(context.Background(), websocket.MessageBinary, []byte(`{"type":"connection:hello"}`)); err != nil {
		t.Fatal(err)
	}
	var e ConnectionError
	c.expect(TypeConnectionError, &e)
	if e.Code != CodeInvalidMessage {
		t.Errorf("code = %s", e.Code)
	}
}

// Scenarios 5.2, 5.3 (+EC-26, EC-27), 5.5: file handlers and action logging.
func TestFileFlow(t *testing.T) {
	h := newHarness(t, Options{Log: testLog(t)})
	ctx := context.Background()
	sess, err := h.sess.Start(ctx, session.StartInput{})
	if err != nil {
		t.Fatal(err)
	}
	c, other := h.dial(t), h.dial(t)

	c.send(TypeFileOpen, PathPayload{Path: filepath.Join(h.project, "main.go")})
	var fc FileContent
	for _, cl := range []*client{c, other} { // broadcast reaches both (EC-25)
		cl.expect(TypeFSContent, &fc)
		if fc.Path != "main.go" || fc.Language != "go" || fc.LineCount != 3 || !strings.Contains(fc.Content, "func main") {
			t.Errorf("fs:content = %+v", fc)
		}
	}
	if got := h.sess.OpenFiles(); !cmp.Equal(got, []string{"main.go"}) {
		t.Errorf("open files = %v", got)
	}

	c.send(TypeFileOpen, PathPayload{Path: "missing.go"}) // EC-26
	var e ConnectionError
	c.expect(TypeConnectionError, &e)
	if e.Code != CodeFileError || e.Context["path"] != "missing.go" {
		t.Errorf("got %+v", e)
	}
	c.send(TypeFileOpen, PathPayload{Path: "../../etc/passwd"})
	c.expect(TypeConnectionError, &e)

	c.send(TypeFileSave, map[string]any{"path": "main.go", "content": "package main\n"})
	var ack FSSaveAck
	c.expect(TypeFSSaveAck, &ack)
	if !ack.Success || ack.Path != "main.go" || ack.Timestamp == 0 {
		t.Errorf("ack = %+v", ack)
	}
	if b, _ := os.ReadFile(filepath.Join(h.project, "main.go")); string(b) != "package main\n" {
		t.Errorf("file = %q", b)
	}
	c.send(TypeFileSave, map[string]any{"path": "main.go/x.go", "content": "x"}) // EC-27
	var se FSSaveError
	c.expect(TypeFSSaveError, &se)
	if se.Path != "main.go/x.go" || se.Error == "" {
		t.Errorf("save error = %+v", se)
	}

	c.send(TypeEditorTabSwitch, EditorTabSwitch{FromPath: "a", ToPath: "main.go"})
	c.send(TypeEditorSelection, EditorSelection{Path: "main.go", TextLength: 3})
	c.send(TypeHintsLevelChange, map[string]any{"level": 2, "previousLevel": 1})
	c.send(TypeUserIdleStart, UserIdleStart{LastActionTimestamp: 5})
	c.send(TypeUserIdleEnd, Empty{})
	c.send(TypeFileClose, PathPayload{Path: "./main.go"})
	c.send(TypeEditorScroll, EditorScroll{})
	c.send(TypeExplorerExpandDir, PathPayload{Path: "src"})
	c.send(TypeTerminalResize, TerminalSize{Cols: 80, Rows: 24})
	c.send(TypeConnectionHello, ConnectionHello{}) // barrier: everything before is handled
	c.expect(TypeConnectionInit, nil)

	want := []coach.ActionType{coach.ActionSessionStarted, coach.ActionFileOpen, coach.ActionFileSave,
		coach.ActionTabSwitch, coach.ActionSelection, coach.ActionHintLevelChange,
		coach.ActionIdleStart, coach.ActionIdleEnd, coach.ActionFileClose}
	if diff := cmp.Diff(want, h.actions(t, sess.ID)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if got := h.sess.OpenFiles(); len(got) != 0 {
		t.Errorf("open files after close = %v", got)
	}
	other.expect(TypeFSSaveAck, nil)
	other.expect(TypeFSSaveError, nil)
	other.quiet(100 * time.Millisecond) // errors and init went to the sender only
}

// Scenario 5.4: buffer:update updates the cache silently.
func TestBufferUpdateSilent(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.dial(t)
	c.send(TypeBufferUpdate, map[string]any{"path": "main.go", "content": "edited", "cursorPosition": map[string]int{"line": 1, "column": 2}})
	c.send(TypeConnectionHello, ConnectionHello{})
	c.expect(TypeConnectionInit, nil)                              // nothing came before the init
	b, ok, err := h.ws.Buffer(filepath.Join(h.project, "main.go")) // any path form finds it
	if err != nil || !ok || b.Content != "edited" || !b.Dirty || b.CursorPosition.Column != 2 {
		t.Errorf("buffer = %+v, %v, %v", b, ok, err)
	}
}

// fs:save_ack stands for a committed file_save row: when the row cannot be
// stored (here the database is gone), the answer is fs:save_error, never an
// ack, although the file itself was written.
func TestFileSaveUnrecordedIsNotAcked(t *testing.T) {
	h := newHarness(t, Options{Log: testLog(t)})
	if _, err := h.sess.Start(context.Background(), session.StartInput{}); err != nil {
		t.Fatal(err)
	}
	c := h.dial(t)
	if err := h.st.Close(); err != nil {
		t.Fatal(err)
	}
	c.send(TypeFileSave, map[string]any{"path": "main.go", "content": "package main // saved\n"})
	var se FSSaveError
	c.expect(TypeFSSaveError, &se)
	if se.Path != "main.go" || !strings.Contains(se.Error, "could not be recorded") {
		t.Errorf("save error = %+v", se)
	}
	if b, _ := os.ReadFile(filepath.Join(h.project, "main.go")); string(b) != "package main // saved\n" {
		t.Errorf("file = %q", b)
	}
}
