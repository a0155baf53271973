package mcpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/limits"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// countingCoacher counts the calls that reach the coaching flows.
type countingCoacher struct{ calls atomic.Int32 }

func (c *countingCoacher) RunPipeline(context.Context, coaching.PipelineRequest) (coaching.Plan, error) {
	c.calls.Add(1)
	return coaching.Plan{}, fmt.Errorf("not under test")
}

func (c *countingCoacher) EndSession(context.Context, string) (coaching.WrapUp, error) {
	c.calls.Add(1)
	return coaching.WrapUp{}, fmt.Errorf("not under test")
}

// countingStarter counts the session starts that reach the service.
type countingStarter struct{ calls atomic.Int32 }

func (c *countingStarter) StartSession(context.Context, wsapi.SessionStart, wsapi.StartOptions) (wsapi.StartResult, error) {
	c.calls.Add(1)
	return wsapi.StartResult{}, fmt.Errorf("not under test")
}

func paths(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("src/f%d.ts", i)
	}
	return out
}

// TestToolLimits sends every tool an input over one of its limits: each is
// refused with a tool error naming the field, the limit and the actual
// value; nothing is broadcast, no coaching flow runs, and the server keeps
// answering. Tools without arguments have nothing to cap.
func TestToolLimits(t *testing.T) {
	coacher := &countingCoacher{}
	starter := &countingStarter{}
	h := newHarness(t, func(o *Options) { o.Extra = CoachingTools(coacher); o.Starter = starter })
	h.start(t)
	long := strings.Repeat("x", limits.PathBytes+1)
	deep := strings.Repeat("d/", limits.PathDepth) + "f.ts"
	text := strings.Repeat("t", limits.TextBytes+1)
	doc := strings.Repeat("p", limits.DocumentBytes+1)
	name := strings.Repeat("n", limits.NameBytes+1)
	cases := map[string]struct {
		args map[string]any
		want string
	}{
		"paige_get_buffer":        {map[string]any{"path": long}, "path: 4097 bytes, over the limit of 4096"},
		"paige_get_diff":          {map[string]any{"path": deep}, "path: 65 components, over the limit of 64"},
		"paige_get_session_state": {map[string]any{"include": make([]string, limits.ListItems+1)}, "include: 101 items, over the limit of 100"},
		"paige_open_file":         {map[string]any{"path": deep}, "path: 65 components, over the limit of 64"},
		"paige_highlight_lines": {map[string]any{"path": "src/auth.ts", "start": 1, "end": 1, "style": "info", "hoverText": text},
			"hoverText: 65537 bytes, over the limit of 65536"},
		"paige_clear_highlights":   {map[string]any{"path": long}, "path: 4097 bytes, over the limit of 4096"},
		"paige_hint_files":         {map[string]any{"paths": paths(100000)}, "hints+paths: 100000 items, over the limit of 1000"},
		"paige_update_phase":       {map[string]any{"phase": 1, "status": name}, "status: 257 bytes, over the limit of 256"},
		"paige_show_message":       {map[string]any{"message": text, "type": "info"}, "message: 65537 bytes, over the limit of 65536"},
		"paige_show_issue_context": {map[string]any{"title": "t", "summary": "s", "labels": []string{name}}, "labels[0]: 257 bytes, over the limit of 256"},
		"paige_run_coaching_pipeline": {map[string]any{"planText": doc, "issueSummary": "s"},
			"planText: 4194305 bytes, over the limit of 4194304"},
		"paige_end_session": {map[string]any{"sessionTranscript": doc}, "sessionTranscript: 4194305 bytes, over the limit of 4194304"},
		"paige_start_session": {map[string]any{"issueTitle": strings.Repeat("t", limits.TitleBytes+1)},
			"issueTitle: 2049 bytes, over the limit of 2048"},
	}
	noArgs := map[string]bool{"paige_get_open_files": true, "paige_clear_hints": true}
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(cases)+len(noArgs) {
		t.Errorf("%d tools listed, %d covered here", len(res.Tools), len(cases)+len(noArgs))
	}
	for _, tool := range res.Tools {
		t.Run(tool.Name, func(t *testing.T) {
			if noArgs[tool.Name] {
				if props := schemaProperties(t, tool.InputSchema); len(props) != 0 {
					t.Fatalf("%s takes %v: add a limit case", tool.Name, props)
				}
				return
			}
			tc, ok := cases[tool.Name]
			if !ok {
				t.Fatalf("no limit case for %s", tool.Name)
			}
			h.hub.take()
			got := h.call(t, tool.Name, tc.args, nil)
			if got != tc.want {
				t.Errorf("error = %.200q, want %q", got, tc.want)
			}
			if msgs := h.hub.take(); len(msgs) != 0 {
				t.Errorf("refused call broadcast %v", msgs)
			}
		})
	}
	if n := coacher.calls.Load() + starter.calls.Load(); n != 0 {
		t.Errorf("the coaching flows ran %d times on refused input", n)
	}
	// The server keeps working: a call at the limit succeeds.
	var ack Ack
	if msg := h.call(t, "paige_hint_files", map[string]any{"paths": paths(limits.PathsPerCall)}, &ack); msg != "" {
		t.Fatalf("hint_files at the limit: %s", msg)
	}
	if ack.Count != limits.PathsPerCall || len(h.sess.Hints()) != limits.PathsPerCall {
		t.Errorf("count = %d, hints = %d, want %d", ack.Count, len(h.sess.Hints()), limits.PathsPerCall)
	}
}

// schemaProperties returns the property names of an input schema.
func schemaProperties(t *testing.T, schema any) map[string]any {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s.Properties
}

// Hints given in both forms count together, each hint's fields and
// directories are checked, and a path fails the guard's caps before any
// state changes.
func TestHintFilesLimits(t *testing.T) {
	h := newHarness(t)
	deep := strings.Repeat("d/", limits.PathDepth) + "f.ts"
	hints := make([]map[string]any, 600)
	for i := range hints {
		hints[i] = map[string]any{"path": fmt.Sprintf("h%d.ts", i), "style": "focus"}
	}
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"both forms", map[string]any{"hints": hints, "paths": paths(401)}, "hints+paths: 1001 items, over the limit of 1000"},
		{"deep hint", map[string]any{"hints": []map[string]any{{"path": deep, "style": "x"}}}, "hints[0].path: 65 components, over the limit of 64"},
		{"directories", map[string]any{"hints": []map[string]any{{"path": "a.ts", "style": "x", "directories": paths(limits.ListItems + 1)}}},
			"hints[0].directories: 101 items, over the limit of 100"},
		{"deep path", map[string]any{"paths": []string{"a.ts", deep}}, "paths[1]: 65 components, over the limit of 64"},
		{"style", map[string]any{"paths": []string{"a.ts"}, "style": strings.Repeat("s", 300)}, "style: 300 bytes, over the limit of 256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := h.call(t, "paige_hint_files", tc.args, nil); got != tc.want {
				t.Errorf("error = %q, want %q", got, tc.want)
			}
			if n := len(h.sess.Hints()); n != 0 {
				t.Errorf("%d hints kept from a refused call", n)
			}
		})
	}
}

// An MCP request body over limits.MessageBytes is refused with 413 before
// it is parsed; one just under is read (and here answered as usual).
func TestRequestBodyLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 16 MiB")
	}
	h := newHarness(t)
	srv := httptest.NewServer(Handler(New(Options{Files: h.ws, Store: h.st, Session: h.sess, Hub: h.hub}), nil, 0))
	t.Cleanup(srv.Close)
	post := func(pad int) int {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
			`"capabilities":{},"clientInfo":{"name":"t","version":"1"},"pad":"` + strings.Repeat("p", pad) + `"}}`
		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := post(limits.MessageBytes); code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d for a body over the limit, want 413", code)
	}
	if code := post(limits.DocumentBytes + 1); code != http.StatusOK {
		t.Errorf("status %d for a body over a document's size but under the limit, want 200", code)
	}
}
