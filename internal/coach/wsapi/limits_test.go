package wsapi

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/paige-dev/paige/internal/coach/limits"
)

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
