package wsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/limits"
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

// TestMessageLimits sends every client→server message type of the catalog
// a payload over one of its limits. Each is answered to the sender alone
// with connection:error LIMIT_EXCEEDED naming the field, the limit and the
// actual value (types with nothing to cap: a message over the size limit,
// MESSAGE_TOO_LARGE); both connections stay open, nothing is broadcast,
// and the server keeps serving them.
func TestMessageLimits(t *testing.T) {
	const maxMessage = 1 << 20 // big payloads: TestContentLimits
	h := newHarness(t, Options{MaxMessageBytes: maxMessage})
	c, other := h.dial(t), h.dial(t)
	deep := strings.Repeat("d/", limits.PathDepth) + "f.go"
	long := strings.Repeat("x", limits.PathBytes+1)
	name := strings.Repeat("n", limits.NameBytes+1)
	type want struct {
		field         string
		limit, actual int
	}
	cases := map[string]struct {
		payload map[string]any // nil: nothing to cap, send an oversized message
		want    want
	}{
		TypeConnectionHello:        {map[string]any{"version": name}, want{"version", limits.NameBytes, limits.NameBytes + 1}},
		TypeDashboardRequest:       {map[string]any{"statsPeriod": name}, want{"statsPeriod", limits.NameBytes, limits.NameBytes + 1}},
		TypeDashboardRefreshIssues: {},
		TypeRefreshMaterials:       {},
		TypeSessionStart:           {map[string]any{"issueTitle": strings.Repeat("t", limits.TitleBytes+1)}, want{"issueTitle", limits.TitleBytes, limits.TitleBytes + 1}},
		TypeSessionResume:          {map[string]any{"sessionId": name}, want{"sessionId", limits.NameBytes, limits.NameBytes + 1}},
		TypeSessionEnd:             {},
		TypeFileOpen:               {map[string]any{"path": long}, want{"path", limits.PathBytes, limits.PathBytes + 1}},
		TypeFileSave:               {map[string]any{"path": deep, "content": "x"}, want{"path", limits.PathDepth, limits.PathDepth + 1}},
		TypeFileClose:              {map[string]any{"path": deep}, want{"path", limits.PathDepth, limits.PathDepth + 1}},
		TypeBufferUpdate:           {map[string]any{"path": "main.go", "content": "x", "selections": make([]any, limits.ListItems+1)}, want{"selections", limits.ListItems, limits.ListItems + 1}},
		TypeEditorTabSwitch:        {map[string]any{"fromPath": "a.go", "toPath": deep}, want{"toPath", limits.PathDepth, limits.PathDepth + 1}},
		TypeEditorSelection:        {map[string]any{"path": long}, want{"path", limits.PathBytes, limits.PathBytes + 1}},
		TypeEditorScroll:           {map[string]any{"path": deep}, want{"path", limits.PathDepth, limits.PathDepth + 1}},
		TypeExplorerExpandDir:      {map[string]any{"path": deep}, want{"path", limits.PathDepth, limits.PathDepth + 1}},
		TypeExplorerCollapseDir:    {map[string]any{"path": long}, want{"path", limits.PathBytes, limits.PathBytes + 1}},
		TypeHintsLevelChange:       {map[string]any{"level": name}, want{"level", limits.NameBytes, limits.NameBytes + 1}},
		TypeUserExplain:            {map[string]any{"path": "main.go", "language": name}, want{"language", limits.NameBytes, limits.NameBytes + 1}},
		TypeUserReview:             {map[string]any{"kataId": name}, want{"kataId", limits.NameBytes, limits.NameBytes + 1}},
		TypeUserIdleStart:          {},
		TypeUserIdleEnd:            {},
		TypeObserverMute:           {},
		TypePracticeSubmitSolution: {map[string]any{"kataId": "k", "activeConstraints": make([]string, limits.ListItems+1)}, want{"activeConstraints", limits.ListItems, limits.ListItems + 1}},
		TypeTerminalReady:          {map[string]any{"cols": limits.TerminalCells + 1, "rows": 1}, want{"cols", limits.TerminalCells, limits.TerminalCells + 1}},
		TypeTerminalInput:          {map[string]any{"input": strings.Repeat("i", limits.TextBytes+1)}, want{"input", limits.TextBytes, limits.TextBytes + 1}},
		TypeFSGetTree:              {},
		TypeSessionGetState:        {},
		TypePracticeOpen:           {map[string]any{"kataId": name}, want{"kataId", limits.NameBytes, limits.NameBytes + 1}},
		TypeTerminalResize:         {map[string]any{"cols": 1, "rows": limits.TerminalCells + 1}, want{"rows", limits.TerminalCells, limits.TerminalCells + 1}},
		TypeFSCreate:               {map[string]any{"path": deep}, want{"path", limits.PathDepth, limits.PathDepth + 1}},
		TypeFSRename:               {map[string]any{"from": "a.go", "to": long}, want{"to", limits.PathBytes, limits.PathBytes + 1}},
		TypeFSDelete:               {map[string]any{"path": long}, want{"path", limits.PathBytes, limits.PathBytes + 1}},
		TypeFSSearch:               {map[string]any{"query": strings.Repeat("q", 257)}, want{"query", 256, 257}},
	}
	n := 0
	for _, spec := range Catalog {
		if spec.Direction != ClientToServer {
			continue
		}
		n++
		t.Run(spec.Type, func(t *testing.T) {
			tc, ok := cases[spec.Type]
			if !ok {
				t.Fatalf("no limit case for %s", spec.Type)
			}
			var e ConnectionError
			if tc.payload == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				frame := `{"type":"` + spec.Type + `","payload":{"pad":"` + strings.Repeat("p", maxMessage) + `"}}`
				if err := c.ws.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
					t.Fatal(err)
				}
				c.expect(TypeConnectionError, &e)
				if e.Code != CodeMessageTooLarge {
					t.Errorf("code = %s (%s), want %s", e.Code, e.Message, CodeMessageTooLarge)
				}
				return
			}
			c.send(spec.Type, tc.payload)
			env := c.expect(TypeConnectionError, &e)
			if e.Code != CodeLimitExceeded || env.Type != TypeConnectionError {
				t.Fatalf("code = %s (%.200s), want %s", e.Code, e.Message, CodeLimitExceeded)
			}
			got := want{field: e.Context["field"].(string), limit: int(e.Context["limit"].(float64)), actual: int(e.Context["actual"].(float64))}
			if got != tc.want {
				t.Errorf("context = %+v, want %+v", got, tc.want)
			}
			if e.Context["type"] != spec.Type || !strings.Contains(e.Message, "over the limit of") {
				t.Errorf("error = %q %v", e.Message, e.Context)
			}
		})
	}
	if n != len(cases) {
		t.Errorf("%d client types, %d cases", n, len(cases))
	}
	if entries, err := os.ReadDir(h.project); err != nil || len(entries) != 1 {
		t.Errorf("project holds %v (%v), want main.go alone: a refused save created something", entries, err)
	}
	if _, err := os.Stat(filepath.Join(h.project, "d")); !os.IsNotExist(err) {
		t.Errorf("the deep save created directories: %v", err)
	}
	// Both connections still work, and the bystander saw nothing before.
	c.send(TypeFileOpen, map[string]any{"path": "main.go"})
	c.expect(TypeFSContent, nil)
	other.expect(TypeFSContent, nil)
	c.send(TypeConnectionHello, map[string]any{"version": "1", "platform": "test"})
	c.expect(TypeConnectionInit, nil)
}

// The caps on whole files and documents, in messages under the size limit:
// LIMIT_EXCEEDED, nothing written, the connection stays.
func TestContentLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("sends megabytes")
	}
	h := newHarness(t, Options{})
	c := h.dial(t)
	content := strings.Repeat("c", limits.ContentBytes+1)
	doc := strings.Repeat("d", limits.DocumentBytes+1)
	for _, tc := range []struct {
		typ     string
		payload map[string]any
		field   string
	}{
		{TypeFileSave, map[string]any{"path": "big.go", "content": content}, "content"},
		{TypeBufferUpdate, map[string]any{"path": "main.go", "content": content}, "content"},
		{TypeUserExplain, map[string]any{"path": "main.go", "selectedText": doc}, "selectedText"},
		{TypeUserReview, map[string]any{"kataId": "k", "userCode": doc}, "userCode"},
		{TypePracticeSubmitSolution, map[string]any{"kataId": "k", "code": doc}, "code"},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			b, err := json.Marshal(map[string]any{"type": tc.typ, "payload": tc.payload})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
				t.Fatal(err)
			}
			env, err := c.read(60 * time.Second)
			if err != nil {
				t.Fatal(err)
			}
			var e ConnectionError
			if err := json.Unmarshal(env.Payload, &e); err != nil || e.Code != CodeLimitExceeded || e.Context["field"] != tc.field {
				t.Errorf("got %s %+v (%v), want LIMIT_EXCEEDED on %s", env.Type, e, err, tc.field)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(h.project, "big.go")); !os.IsNotExist(err) {
		t.Errorf("the refused save wrote big.go: %v", err)
	}
	if _, ok, _ := h.ws.Buffer("main.go"); ok {
		t.Error("the refused buffer:update was cached")
	}
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

// TestFileOps: fs:create, fs:rename and fs:delete change the project on
// disk without a coaching session and are broadcast to every editor; a path
// outside the project is answered FILE_ERROR to the sender alone and
// changes nothing; fs:search replies to the sender only.
func TestFileOps(t *testing.T) {
	h := newHarness(t, Options{})
	a, b := h.dial(t), h.dial(t)
	disk := func(rel string) string { return filepath.Join(h.project, filepath.FromSlash(rel)) }

	a.send(TypeFSCreate, FSCreate{Path: "src/util.go"})
	var created FSCreate
	a.expect(TypeFSCreated, &created)
	b.expect(TypeFSCreated, nil)
	if created != (FSCreate{Path: "src/util.go", Type: "file"}) {
		t.Errorf("fs:created: got %+v", created)
	}
	if _, err := os.Stat(disk("src/util.go")); err != nil {
		t.Fatalf("created file: %v", err)
	}

	a.send(TypeFSRename, FSRename{From: "src/util.go", To: "lib/util.go"})
	var renamed FSRename
	a.expect(TypeFSRenamed, &renamed)
	b.expect(TypeFSRenamed, nil)
	if renamed != (FSRename{From: "src/util.go", To: "lib/util.go"}) {
		t.Errorf("fs:renamed: got %+v", renamed)
	}
	if _, err := os.Stat(disk("lib/util.go")); err != nil {
		t.Fatalf("renamed file: %v", err)
	}

	a.send(TypeFSCreate, FSCreate{Path: "../escape.go"})
	var e ConnectionError
	if a.expect(TypeConnectionError, &e); e.Code != CodeFileError || e.Context["path"] != "../escape.go" {
		t.Errorf("escape: got %+v", e)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(h.project), "escape.go")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file was created outside the project: %v", err)
	}

	a.send(TypeFSDelete, PathPayload{Path: "lib"})
	var deleted PathPayload
	a.expect(TypeFSDeleted, &deleted)
	b.expect(TypeFSDeleted, nil)
	if _, err := os.Stat(disk("lib")); deleted.Path != "lib" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("fs:deleted %+v, lib on disk: %v", deleted, err)
	}

	b.send(TypeFSSearch, FSSearch{Query: "FUNC MAIN"})
	var res FSSearchResult
	b.expect(TypeFSSearchResult, &res)
	if res.Query != "FUNC MAIN" || len(res.Hits) != 1 || res.Hits[0].Path != "main.go" || res.Hits[0].Line != 3 || res.Truncated {
		t.Errorf("fs:search_result: got %+v", res)
	}
	a.send(TypeFSGetTree, Empty{}) // a got nothing from b's search: its next message is this reply
	a.expect(TypeFSTree, nil)
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

// readAll reads what io.ReadAll reads, whatever the starting size, and
// passes a read error on.
func TestReadAll(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513, 2600, 70000} {
		data := bytes.Repeat([]byte("x"), n)
		for _, size := range []int{1, 512, n, n + 1, 2 * n} {
			got, err := readAll(bytes.NewReader(data), max(size, 1))
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%d bytes from size %d: %d bytes, %v", n, size, len(got), err)
			}
		}
	}
	boom := errors.New("boom")
	if _, err := readAll(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 2); !errors.Is(err, boom) {
		t.Errorf("read error: %v", err)
	}
}
