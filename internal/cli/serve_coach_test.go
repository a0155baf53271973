package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
)

// TestServeCoachingFlow drives the real server with an editor (WebSocket)
// and Claude Code (MCP SDK client) through stories 5 and 6 together.
func TestServeCoachingFlow(t *testing.T) {
	s := startServe(t, serveEnv(t))
	editor, second := s.ws(t), s.ws(t)
	cs := s.mcpClient(t)

	// 6.17 before any session.
	if msg := callTool(t, cs, "paige_get_session_state", map[string]any{}, nil); msg != "No active session" {
		t.Fatalf("no session: %q", msg)
	}
	// 5.1
	editor.send(wsapi.TypeConnectionHello, wsapi.ConnectionHello{Version: "1", Platform: "darwin", WindowSize: wsapi.WindowSize{Width: 1200, Height: 800}})
	editor.expect(wsapi.TypeConnectionInit, nil)
	// session:start → session:started + fs:tree to every editor.
	editor.send(wsapi.TypeSessionStart, map[string]any{"issueNumber": 7, "issueTitle": "Fix OAuth race"})
	var started wsapi.SessionStarted
	editor.expect(wsapi.TypeSessionStarted, &started)
	var tree wsapi.FSTree
	editor.expect(wsapi.TypeFSTree, &tree)
	second.expect(wsapi.TypeSessionStarted, nil)
	if tree.Root == nil || len(tree.Root.Children) == 0 {
		t.Fatalf("fs:tree = %+v", tree)
	}
	// 5.2 + 6.3: open files from both sides.
	editor.send(wsapi.TypeFileOpen, map[string]any{"path": "src/auth.ts"})
	var fc wsapi.FileContent
	editor.expect(wsapi.TypeFSContent, &fc)
	if fc.Language != "typescript" || fc.LineCount != 3 {
		t.Errorf("fs:content = %+v", fc)
	}
	var ack mcpapi.Ack
	if msg := callTool(t, cs, "paige_open_file", mcpapi.PathIn{Path: "README.md"}, &ack); msg != "" {
		t.Fatal(msg)
	}
	second.expect(wsapi.TypeEditorOpenFile, nil) // EC-25: every editor
	editor.expect(wsapi.TypeEditorOpenFile, nil)
	var open mcpapi.OpenFilesOut
	callTool(t, cs, "paige_get_open_files", map[string]any{}, &open)
	if !slices.Equal(open.Files, []string{"src/auth.ts", "README.md"}) {
		t.Errorf("open files = %v", open.Files)
	}
	// 5.4 + 6.1 + 6.4: a buffer edit is visible to Claude, under any path form.
	editor.send(wsapi.TypeBufferUpdate, map[string]any{"path": filepath.Join(s.project, "src/auth.ts"),
		"content": "export function login() {\n  return false;\n}\n", "cursorPosition": map[string]int{"line": 2, "column": 10}})
	var buf mcpapi.BufferEntry
	callTool(t, cs, "paige_get_buffer", mcpapi.PathIn{Path: "src/auth.ts"}, &buf)
	if !buf.Dirty || !strings.Contains(buf.Content, "false") || buf.CursorPosition.Line != 2 {
		t.Errorf("buffer = %+v", buf)
	}
	var diffs mcpapi.DiffsOut
	callTool(t, cs, "paige_get_diff", map[string]any{"path": "./src/auth.ts"}, &diffs)
	if len(diffs.Diffs) != 1 || !strings.Contains(diffs.Diffs[0].Diff, "+  return false;") {
		t.Errorf("diff = %+v", diffs)
	}
	// 6.9, 6.11, 6.15, 6.16: UI control reaches the editor.
	callTool(t, cs, "paige_highlight_lines", map[string]any{"path": "src/auth.ts", "start": 2, "end": 2, "style": "hint"}, nil)
	var hl wsapi.HighlightLines
	editor.expect(wsapi.TypeEditorHighlightLines, &hl)
	if hl.Path != "src/auth.ts" || hl.Start != 2 {
		t.Errorf("highlight = %+v", hl)
	}
	callTool(t, cs, "paige_hint_files", map[string]any{"paths": []string{"src/auth.ts"}, "style": "suggested"}, nil)
	var hints wsapi.ExplorerHintFiles
	editor.expect(wsapi.TypeExplorerHintFiles, &hints)
	if len(hints.Hints) != 1 || hints.Hints[0].Style != "suggested" {
		t.Errorf("hints = %+v", hints)
	}
	callTool(t, cs, "paige_show_message", map[string]any{"message": "Nice work!", "type": "success"}, nil)
	editor.expect(wsapi.TypeCoachingMessage, nil)
	callTool(t, cs, "paige_show_issue_context", map[string]any{"title": "Fix OAuth race condition", "summary": "..."}, nil)
	editor.expect(wsapi.TypeCoachingIssueContext, nil)

	// 6.13 with a plan stored by the (later) pipeline: a second connection to the database.
	db, err := store.Open(context.Background(), s.data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	plan, err := db.CreatePlan(context.Background(), started.SessionID, "1. read")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreatePhase(context.Background(), coach.Phase{PlanID: plan.ID, Number: 1, Title: "Read", Status: coach.PhasePending}); err != nil {
		t.Fatal(err)
	}
	var phase mcpapi.PhaseOut
	if msg := callTool(t, cs, "paige_update_phase", map[string]any{"phase": 1, "status": "active"}, &phase); msg != "" {
		t.Fatal(msg)
	}
	var upd wsapi.PhaseUpdate
	editor.expect(wsapi.TypeCoachingPhaseUpdate, &upd)
	if upd.Status != "active" || phase.Phase.Title != "Read" {
		t.Errorf("phase update = %+v / %+v", upd, phase)
	}
	var state map[string]json.RawMessage
	callTool(t, cs, "paige_get_session_state", map[string]any{"include": []string{"phase", "diffs"}}, &state) // 6.6
	if len(state) != 2 || !strings.Contains(string(state["phase"]), `"status":"active"`) {
		t.Errorf("state = %v", state)
	}
	// 5.3 + 5.6: a save is acknowledged and the watcher reports the new file.
	editor.send(wsapi.TypeFileSave, map[string]any{"path": "src/new.ts", "content": "export {};\n"})
	editor.expect(wsapi.TypeFSSaveAck, nil)
	var tu wsapi.FSTreeUpdate
	editor.expect(wsapi.TypeFSTreeUpdate, &tu)
	if tu.Path != "src/new.ts" || tu.Action != "add" {
		t.Errorf("tree update = %+v", tu)
	}
	// session:end
	editor.send(wsapi.TypeSessionEnd, map[string]any{})
	var ended wsapi.SessionEnded
	editor.expect(wsapi.TypeSessionEnded, &ended)
	if ended.Summary.SessionID != started.SessionID || ended.Summary.Status != "completed" {
		t.Errorf("ended = %+v", ended)
	}
	if msg := callTool(t, cs, "paige_update_phase", map[string]any{"phase": 1, "status": "complete"}, nil); msg != "No active session" {
		t.Errorf("after end: %q", msg)
	}

	acts, err := db.RecentActions(context.Background(), store.ActionQuery{SessionID: started.SessionID})
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
	row, _ := db.Session(context.Background(), started.SessionID)
	if row.Status != coach.SessionCompleted || row.EndedAt == nil {
		t.Errorf("session row = %+v", row)
	}
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
