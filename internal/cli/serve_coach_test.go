package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// coachFlow is the state shared by the steps of TestServeCoachingFlow.
type coachFlow struct {
	s              *served
	editor, second *wsClient
	cs             *mcp.ClientSession
	sessionID      string
}

// TestServeCoachingFlow drives the real server with two editors (WebSocket)
// and Claude Code (MCP SDK client) through stories 5 and 6 together.
func TestServeCoachingFlow(t *testing.T) {
	s := startServe(t, serveEnv(t))
	f := &coachFlow{s: s, editor: s.ws(t), second: s.ws(t), cs: s.mcpClient(t)}
	f.start(t)
	f.openFiles(t)
	f.buffers(t)
	f.uiControls(t)
	f.phase(t)
	f.saveAndEnd(t)
	f.checkLog(t)
}

// start: 6.17 before any session, 5.1 handshake, session:start → session:started + fs:tree to every editor.
func (f *coachFlow) start(t *testing.T) {
	if msg := callTool(t, f.cs, "paige_get_session_state", map[string]any{}, nil); msg != "No active session" {
		t.Fatalf("no session: %q", msg)
	}
	f.editor.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{Version: "1", Platform: "darwin", WindowSize: wsapi.WindowSize{Width: 1200, Height: 800}})
	f.editor.expect(wsapi.TypeConnectionInit, nil)
	f.editor.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 7, "issueTitle": "Fix OAuth race"})
	var started wsapi.SessionStarted
	f.editor.expect(wsapi.TypeSessionStarted, &started)
	var tree wsapi.FSTree
	f.editor.expect(wsapi.TypeFSTree, &tree)
	f.second.expect(wsapi.TypeSessionStarted, nil)
	if tree.Root == nil || len(tree.Root.Children) == 0 {
		t.Fatalf("fs:tree = %+v", tree)
	}
	f.sessionID = started.SessionID
}

// openFiles: 5.2 + 6.3 + EC-25, files opened from both sides.
func (f *coachFlow) openFiles(t *testing.T) {
	f.editor.send(wsapi.TypeFileOpen, map[string]any{"path": "src/auth.ts"})
	var fc wsapi.FileContent
	f.editor.expect(wsapi.TypeFSContent, &fc)
	if fc.Language != "typescript" || fc.LineCount != 3 {
		t.Errorf("fs:content = %+v", fc)
	}
	var ack mcpapi.Ack
	if msg := callTool(t, f.cs, "paige_open_file", mcpapi.PathIn{Path: "README.md"}, &ack); msg != "" {
		t.Fatal(msg)
	}
	f.second.expect(wsapi.TypeEditorOpenFile, nil)
	f.editor.expect(wsapi.TypeEditorOpenFile, nil)
	var open mcpapi.OpenFilesOut
	callTool(t, f.cs, "paige_get_open_files", map[string]any{}, &open)
	if !slices.Equal(open.Files, []string{"src/auth.ts", "README.md"}) {
		t.Errorf("open files = %v", open.Files)
	}
}

// buffers: 5.4 + 6.1 + 6.4, an edit is visible to Claude under any path form.
func (f *coachFlow) buffers(t *testing.T) {
	f.editor.send(wsapi.TypeBufferUpdate, map[string]any{"path": filepath.Join(f.s.project, "src/auth.ts"),
		"content": "export function login() {\n  return false;\n}\n", "cursorPosition": map[string]int{"line": 2, "column": 10}})
	f.editor.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{}) // barrier: the update is handled
	f.editor.expect(wsapi.TypeConnectionInit, nil)
	var buf mcpapi.BufferEntry
	callTool(t, f.cs, "paige_get_buffer", mcpapi.PathIn{Path: "src/auth.ts"}, &buf)
	if !buf.Dirty || !strings.Contains(buf.Content, "false") || buf.CursorPosition.Line != 2 {
		t.Errorf("buffer = %+v", buf)
	}
	var diffs mcpapi.DiffsOut
	callTool(t, f.cs, "paige_get_diff", map[string]any{"path": "./src/auth.ts"}, &diffs)
	if len(diffs.Diffs) != 1 || !strings.Contains(diffs.Diffs[0].Diff, "+  return false;") {
		t.Errorf("diff = %+v", diffs)
	}
}

// uiControls: 6.9, 6.11, 6.15, 6.16 reach the editor.
func (f *coachFlow) uiControls(t *testing.T) {
	callTool(t, f.cs, "paige_highlight_lines", map[string]any{"path": "src/auth.ts", "start": 2, "end": 2, "style": "hint"}, nil)
	var hl wsapi.HighlightLines
	f.editor.expect(wsapi.TypeEditorHighlightLines, &hl)
	if hl.Path != "src/auth.ts" || hl.Start != 2 {
		t.Errorf("highlight = %+v", hl)
	}
	callTool(t, f.cs, "paige_hint_files", map[string]any{"paths": []string{"src/auth.ts"}, "style": "suggested"}, nil)
	var hints wsapi.ExplorerHintFiles
	f.editor.expect(wsapi.TypeExplorerHintFiles, &hints)
	if len(hints.Hints) != 1 || hints.Hints[0].Style != "suggested" {
		t.Errorf("hints = %+v", hints)
	}
	callTool(t, f.cs, "paige_show_message", map[string]any{"message": "Nice work!", "type": "success"}, nil)
	f.editor.expect(wsapi.TypeCoachingMessage, nil)
	callTool(t, f.cs, "paige_show_issue_context", map[string]any{"title": "Fix OAuth race condition", "summary": "..."}, nil)
	f.editor.expect(wsapi.TypeCoachingIssueContext, nil)
}

// phase: 6.13 and 6.6 with a plan stored through a second database connection.
func (f *coachFlow) phase(t *testing.T) {
	ctx := context.Background()
	db := f.openDB(t)
	plan, err := db.CreatePlan(ctx, f.sessionID, "1. read")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreatePhase(ctx, coach.Phase{PlanID: plan.ID, Number: 1, Title: "Read", Status: coach.PhasePending}); err != nil {
		t.Fatal(err)
	}
	var phase mcpapi.PhaseOut
	if msg := callTool(t, f.cs, "paige_update_phase", map[string]any{"phase": 1, "status": "active"}, &phase); msg != "" {
		t.Fatal(msg)
	}
	var upd wsapi.PhaseUpdate
	f.editor.expect(wsapi.TypeCoachingPhaseUpdate, &upd)
	if upd.Status != "active" || phase.Phase.Title != "Read" {
		t.Errorf("phase update = %+v / %+v", upd, phase)
	}
	var state map[string]json.RawMessage
	callTool(t, f.cs, "paige_get_session_state", map[string]any{"include": []string{"phase", "diffs"}}, &state)
	if len(state) != 2 || !strings.Contains(string(state["phase"]), `"status":"active"`) {
		t.Errorf("state = %v", state)
	}
}

// saveAndEnd: 5.3 + 5.6 (the watcher reports the saved file), then session:end.
// The watcher's fs:tree_update and the handler's fs:save_ack come from two
// goroutines: on a loaded machine either may arrive first.
func (f *coachFlow) saveAndEnd(t *testing.T) {
	f.editor.send(wsapi.TypeFileSave, map[string]any{"path": "src/new.ts", "content": "export {};\n"})
	got := f.editor.expectAll(wsapi.TypeFSSaveAck, wsapi.TypeFSTreeUpdate)
	var tu wsapi.FSTreeUpdate
	if err := json.Unmarshal(got[wsapi.TypeFSTreeUpdate].Payload, &tu); err != nil {
		t.Fatal(err)
	}
	if tu.Path != "src/new.ts" || tu.Action != "add" {
		t.Errorf("tree update = %+v", tu)
	}
	f.editor.send(wsapi.TypeSessionEnd, map[string]any{})
	var ended wsapi.SessionEnded
	f.editor.expect(wsapi.TypeSessionEnded, &ended)
	if ended.Summary.SessionID != f.sessionID || ended.Summary.Status != "completed" {
		t.Errorf("ended = %+v", ended)
	}
	if msg := callTool(t, f.cs, "paige_update_phase", map[string]any{"phase": 1, "status": "complete"}, nil); msg != "No active session" {
		t.Errorf("after end: %q", msg)
	}
}

// checkLog: every step left its action in action_log; the row is completed.
func (f *coachFlow) checkLog(t *testing.T) {
	ctx := context.Background()
	db := f.openDB(t)
	acts, err := db.RecentActions(ctx, store.ActionQuery{SessionID: f.sessionID})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[coach.ActionType]int{}
	for _, a := range acts {
		seen[a.Type]++
	}
	for _, want := range []coach.ActionType{coach.ActionSessionStarted, coach.ActionFileOpen, coach.ActionMCPToolCall,
		coach.ActionDecorationsApplied, coach.ActionFileHintsApplied, coach.ActionCoachingMessage,
		coach.ActionPhaseStarted, coach.ActionFileSave, coach.ActionSessionEnded} {
		if seen[want] == 0 {
			t.Errorf("%s not logged (got %v)", want, seen)
		}
	}
	row, _ := db.Session(ctx, f.sessionID)
	if row.Status != coach.SessionCompleted || row.EndedAt == nil {
		t.Errorf("session row = %+v", row)
	}
}

func (f *coachFlow) openDB(t *testing.T) *store.Store {
	t.Helper()
	db, err := store.Open(context.Background(), f.s.data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// EC-35: with no editor connected, read tools answer and UI tools succeed
// (their broadcast reaches nobody).
func TestServeToolsWithoutEditor(t *testing.T) {
	s := startServe(t, serveEnv(t))
	cs := s.mcpClient(t)
	var ack mcpapi.Ack
	if msg := callTool(t, cs, "paige_open_file", mcpapi.PathIn{Path: "src/auth.ts"}, &ack); msg != "" || !ack.Success {
		t.Fatalf("open: %q %+v", msg, ack)
	}
	if msg := callTool(t, cs, "paige_highlight_lines", map[string]any{"path": "src/auth.ts", "start": 1, "end": 1, "style": "hint"}, nil); msg != "" {
		t.Fatal(msg)
	}
	var open mcpapi.OpenFilesOut
	callTool(t, cs, "paige_get_open_files", map[string]any{}, &open)
	if !slices.Equal(open.Files, []string{"src/auth.ts"}) {
		t.Errorf("open files = %v", open.Files)
	}
	var diffs mcpapi.DiffsOut
	if msg := callTool(t, cs, "paige_get_diff", map[string]any{}, &diffs); msg != "" || len(diffs.Diffs) != 0 {
		t.Errorf("diff: %q %+v", msg, diffs)
	}
}
