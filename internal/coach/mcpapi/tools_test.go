package mcpapi

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/workspace"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

func TestToolsListed(t *testing.T) {
	h := newHarness(t)
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tool := range res.Tools {
		got = append(got, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil {
			t.Errorf("%s lacks a description or schema", tool.Name)
		}
	}
	want := []string{"paige_clear_highlights", "paige_clear_hints", "paige_get_buffer", "paige_get_diff",
		"paige_get_open_files", "paige_get_session_state", "paige_highlight_lines", "paige_hint_files",
		"paige_open_file", "paige_show_issue_context", "paige_show_message", "paige_update_phase"}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, name := range got { // FR-081: nothing that writes
		if strings.Contains(name, "write") || strings.Contains(name, "save") || strings.Contains(name, "edit") {
			t.Errorf("tool %s looks like a write tool", name)
		}
	}
}

// Scenarios 6.1, 6.2: buffer with dirty edits, or null.
func TestGetBuffer(t *testing.T) {
	h := newHarness(t)
	if _, err := h.ws.UpdateBuffer("src/auth.ts", "export function login() {}\n", workspace.Cursor{Line: 1, Column: 5}); err != nil {
		t.Fatal(err)
	}
	var b *BufferEntry
	if msg := h.call(t, "paige_get_buffer", PathIn{Path: h.project + "/src/auth.ts"}, &b); msg != "" {
		t.Fatal(msg)
	}
	if b == nil || b.Path != "src/auth.ts" || !b.Dirty || b.CursorPosition.Column != 5 || b.LastUpdated == "" {
		t.Errorf("buffer = %+v", b)
	}
	res, err := h.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "paige_get_buffer", Arguments: PathIn{Path: "unknown.ts"}})
	if err != nil || res.IsError {
		t.Fatalf("unknown file: %v %+v", err, res)
	}
	if sc, ok := res.StructuredContent.(map[string]any); !ok || len(sc) != 0 || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "null" {
		t.Errorf("got %#v / %#v, want text null and structured {}", res.StructuredContent, res.Content)
	}
	if msg := h.call(t, "paige_get_buffer", PathIn{Path: "../../etc/passwd"}, nil); msg == "" {
		t.Error("outside path accepted")
	}
}

// Scenarios 6.3, 6.8, EC-28, EC-29, 6.18.
func TestOpenFiles(t *testing.T) {
	h := newHarness(t)
	for _, p := range []string{"src/auth.ts", "README.md", "src/handlers/oauth.ts"} {
		if _, err := h.sess.OpenFile(p); err != nil { // what file:open does
			t.Fatal(err)
		}
	}
	var ack Ack
	if msg := h.call(t, "paige_open_file", PathIn{Path: "./src/auth.ts"}, &ack); msg != "" { // EC-28: already open
		t.Fatal(msg)
	}
	if !ack.Success || ack.Path != "src/auth.ts" {
		t.Errorf("ack = %+v", ack)
	}
	var fc wsapi.FileContent
	h.takeOne(t, wsapi.TypeEditorOpenFile, &fc)
	if fc.Path != "src/auth.ts" || fc.Language != "typescript" || fc.LineCount != 3 || fc.Content == "" {
		t.Errorf("editor:open_file = %+v", fc)
	}
	want := []string{}
	if msg := h.call(t, "paige_open_file", PathIn{Path: "docs/new.md"}, nil); msg == "" || !strings.Contains(msg, "docs/new.md") {
		t.Errorf("missing file: %q", msg) // 6.18: error names the path
	}
	if msg := h.call(t, "paige_open_file", PathIn{Path: "/etc/passwd"}, nil); msg == "" { // EC-29
		t.Error("outside file opened")
	}
	if got := h.hub.take(); len(got) != 0 {
		t.Errorf("failed opens broadcast %+v", got)
	}
	var files OpenFilesOut
	h.call(t, "paige_get_open_files", EmptyIn{}, &files)
	want = append(want, "src/auth.ts", "README.md", "src/handlers/oauth.ts")
	if diff := cmp.Diff(want, files.Files); diff != "" {
		t.Errorf("open files (-want +got):\n%s", diff)
	}
	h.call(t, "paige_open_file", PathIn{Path: "src/handlers/../../README.md"}, nil)
	h.sess.CloseFile("README.md")
	h.call(t, "paige_open_file", PathIn{Path: "src/handlers/oauth.ts"}, nil)
	h.call(t, "paige_get_open_files", EmptyIn{}, &files)
	if diff := cmp.Diff([]string{"src/auth.ts", "src/handlers/oauth.ts"}, files.Files); diff != "" {
		t.Errorf("after close (-want +got):\n%s", diff)
	}
}

// Scenarios 6.4, 6.5, EC-34.
func TestGetDiff(t *testing.T) {
	h := newHarness(t)
	var out DiffsOut
	h.call(t, "paige_get_diff", OptionalPathIn{}, &out)
	if out.Diffs == nil || len(out.Diffs) != 0 {
		t.Errorf("no dirty buffers: %+v, want empty list", out)
	}
	h.ws.UpdateBuffer("src/auth.ts", "export function login() {\n  return false;\n}\n", workspace.Cursor{})
	h.ws.UpdateBuffer("README.md", "# demo project\n", workspace.Cursor{})
	h.ws.UpdateBuffer("src/handlers/oauth.ts", "export const oauth = 2;\n", workspace.Cursor{})
	if _, err := h.ws.WriteFile("src/handlers/oauth.ts", "export const oauth = 2;\n"); err != nil { // saved: clean
		t.Fatal(err)
	}
	h.call(t, "paige_get_diff", OptionalPathIn{Path: "src/auth.ts"}, &out)
	if len(out.Diffs) != 1 || out.Diffs[0].Path != "src/auth.ts" || !strings.Contains(out.Diffs[0].Diff, "+  return false;") {
		t.Errorf("one file: %+v", out)
	}
	h.call(t, "paige_get_diff", OptionalPathIn{}, &out)
	var paths []string
	for _, d := range out.Diffs {
		paths = append(paths, d.Path)
	}
	if diff := cmp.Diff([]string{"README.md", "src/auth.ts"}, paths); diff != "" {
		t.Errorf("all dirty (-want +got):\n%s", diff)
	}
}

// Scenarios 6.9, 6.10, EC-30, EC-36 and the logged actions.
func TestHighlights(t *testing.T) {
	h := newHarness(t)
	sess := h.start(t)
	for i, in := range []HighlightIn{
		{Path: "src/auth.ts", Start: 1, End: 2, Style: "hint"},
		{Path: "src/auth.ts", Start: 3, End: 3, Style: "warning", HoverText: "why true?"},
		{Path: "README.md", Start: 1, End: 1, Style: "info"}, // EC-30: not open in the editor
	} {
		var ack Ack
		if msg := h.call(t, "paige_highlight_lines", in, &ack); msg != "" {
			t.Fatal(msg)
		}
		if want := []int{1, 2, 1}[i]; ack.Count != want {
			t.Errorf("call %d: count = %d, want %d", i, ack.Count, want)
		}
	}
	if msg := h.call(t, "paige_highlight_lines", HighlightIn{Path: "src/auth.ts", Start: 5, End: 2, Style: "x"}, nil); msg == "" {
		t.Error("end < start accepted")
	}
	if got := len(h.sess.Highlights()["src/auth.ts"]); got != 2 {
		t.Errorf("accumulated %d highlights, want 2", got)
	}
	var types []string
	for _, m := range h.hub.take() {
		types = append(types, m.Type)
	}
	if diff := cmp.Diff([]string{wsapi.TypeEditorHighlightLines, wsapi.TypeEditorHighlightLines, wsapi.TypeEditorHighlightLines}, types); diff != "" {
		t.Errorf("broadcasts (-want +got):\n%s", diff)
	}
	h.call(t, "paige_clear_highlights", OptionalPathIn{Path: "src/auth.ts"}, nil)
	if hs := h.sess.Highlights(); len(hs["src/auth.ts"]) != 0 || len(hs["README.md"]) != 1 {
		t.Errorf("after per-file clear: %+v", hs)
	}
	h.call(t, "paige_clear_highlights", OptionalPathIn{}, nil)
	if hs := h.sess.Highlights(); len(hs) != 0 {
		t.Errorf("after clear all: %+v", hs)
	}
	msgs := h.hub.take()
	if len(msgs) != 2 || string(msgs[0].Payload) != `{"path":"src/auth.ts"}` || string(msgs[1].Payload) != `{}` {
		t.Errorf("clear broadcasts = %+v", msgs)
	}
	want := []coach.ActionType{coach.ActionSessionStarted}
	for range 3 {
		want = append(want, coach.ActionMCPToolCall, coach.ActionDecorationsApplied)
	}
	want = append(want, coach.ActionMCPToolCall, coach.ActionMCPToolCall, coach.ActionMCPToolCall)
	if diff := cmp.Diff(want, h.actions(t, sess.ID)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}

// Scenarios 6.11, 6.12 with both input forms (NOTES.md).
func TestHintFiles(t *testing.T) {
	h := newHarness(t)
	sess := h.start(t)
	h.call(t, "paige_hint_files", map[string]any{"paths": []string{"src/auth.ts", "src/handlers/oauth.ts"}, "style": "suggested"}, nil)
	h.call(t, "paige_hint_files", map[string]any{"hints": []map[string]any{{"path": "README.md", "style": "related", "directories": []string{"."}}}}, nil)
	if msg := h.call(t, "paige_hint_files", map[string]any{}, nil); msg == "" {
		t.Error("empty hint call accepted")
	}
	msgs := h.hub.take()
	if len(msgs) != 2 {
		t.Fatalf("broadcasts = %+v", msgs)
	}
	var first wsapi.ExplorerHintFiles
	_ = json.Unmarshal(msgs[0].Payload, &first)
	want := []wsapi.FileHint{{Path: "src/auth.ts", Style: "suggested"}, {Path: "src/handlers/oauth.ts", Style: "suggested"}}
	if diff := cmp.Diff(want, first.Hints); diff != "" {
		t.Errorf("explorer:hint_files (-want +got):\n%s", diff)
	}
	if len(h.sess.Hints()) != 3 {
		t.Errorf("hints = %+v", h.sess.Hints())
	}
	h.call(t, "paige_clear_hints", EmptyIn{}, nil)
	if msgs := h.hub.take(); len(msgs) != 1 || msgs[0].Type != wsapi.TypeExplorerClearHints {
		t.Errorf("clear broadcasts = %+v", msgs)
	}
	acts := h.actions(t, sess.ID)
	if n := count(acts, coach.ActionFileHintsApplied); n != 2 {
		t.Errorf("file_hints_applied logged %d times, want 2 (%v)", n, acts)
	}
	if n := count(acts, coach.ActionMCPToolCall); n != 4 {
		t.Errorf("mcp_tool_call logged %d times, want 4", n)
	}
}

func count(list []coach.ActionType, t coach.ActionType) int {
	n := 0
	for _, a := range list {
		if a == t {
			n++
		}
	}
	return n
}

// EC-36: rapid concurrent highlight calls are each processed and broadcast;
// the accumulation is exact.
func TestRapidHighlights(t *testing.T) {
	h := newHarness(t)
	sess := h.start(t)
	const n = 40
	errs := make(chan string, n)
	for i := range n {
		go func() {
			errs <- h.call(t, "paige_highlight_lines", HighlightIn{Path: "src/auth.ts", Start: i + 1, End: i + 1, Style: "hint"}, nil)
		}()
	}
	for range n {
		if msg := <-errs; msg != "" {
			t.Fatal(msg)
		}
	}
	if got := len(h.sess.Highlights()["src/auth.ts"]); got != n {
		t.Errorf("accumulated %d highlights, want %d", got, n)
	}
	if got := len(h.hub.take()); got != n {
		t.Errorf("%d broadcasts, want %d", got, n)
	}
	acts := h.actions(t, sess.ID)
	if count(acts, coach.ActionDecorationsApplied) != n || count(acts, coach.ActionMCPToolCall) != n {
		t.Errorf("actions: %d decorations_applied, %d mcp_tool_call; want %d each",
			count(acts, coach.ActionDecorationsApplied), count(acts, coach.ActionMCPToolCall), n)
	}
}

// A tool's answer stands for its committed mcp_tool_call row: the row is
// readable as soon as the answer arrives, without a Flush; and when the
// row cannot be stored (the database is gone) the client gets a tool
// error, not the tool's answer.
func TestToolAnswerMeansCallRecorded(t *testing.T) {
	h := newHarness(t)
	sess := h.start(t)
	ctx := context.Background()
	args := &mcp.CallToolParams{Name: "paige_get_buffer", Arguments: PathIn{Path: "src/auth.ts"}}
	for i := 1; i <= 20; i++ {
		if res, err := h.cs.CallTool(ctx, args); err != nil || res.IsError {
			t.Fatalf("call %d: %v %+v", i, err, res)
		}
		n, err := h.st.CountActions(ctx, sess.ID, coach.ActionMCPToolCall, time.Time{})
		if err != nil || n != i {
			t.Fatalf("after answer %d: %d mcp_tool_call rows (%v), want %d", i, n, err, i)
		}
	}
	if err := h.st.Close(); err != nil {
		t.Fatal(err)
	}
	if msg := h.call(t, "paige_get_buffer", PathIn{Path: "src/auth.ts"}, nil); !strings.Contains(msg, "could not be recorded") {
		t.Errorf("unrecorded call answered %q, want a tool error saying it was not recorded", msg)
	}
}
