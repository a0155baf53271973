package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/store"
)

// sessionEndInput is Claude Code's SessionEnd hook JSON.
func sessionEndInput(tb testing.TB, transcript, cwd string) string {
	tb.Helper()
	b, err := json.Marshal(map[string]any{"session_id": "cc-1", "transcript_path": transcript, "cwd": cwd,
		"hook_event_name": "SessionEnd", "reason": "prompt_input_exit"})
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// activeSession creates DATA_DIR/paige.db with an active coaching session in project.
func activeSession(tb testing.TB, dataDir, project string) {
	tb.Helper()
	db, err := store.Open(context.Background(), dataDir)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CreateSession(context.Background(), store.NewSession{ProjectDir: project, IssueTitle: "t"}); err != nil {
		tb.Fatal(err)
	}
}

// TestSessionEndQueuesWrapUpWhenServerDown: the server is not running, a
// coaching session is active in cwd: the condensed transcript is queued for
// the next paige serve, once; without an active session nothing is queued.
func TestSessionEndQueuesWrapUpWhenServerDown(t *testing.T) {
	data, project := t.TempDir(), t.TempDir()
	vars := map[string]string{"HOME": t.TempDir(), "DATA_DIR": data, "PORT": freePort(t), "PAIGE_LEARN_QUEUE": "off"}
	tr := unmodifiedTranscript(t)
	runCLI(t, vars, sessionEndInput(t, tr, project), "hook", "session-end")
	if q, _ := filepath.Glob(filepath.Join(coaching.QueueDir(data), "*.json")); len(q) != 0 {
		t.Fatalf("queued %v without a coaching session", q)
	}

	activeSession(t, data, project)
	out, errOut, err := runCLI(t, vars, sessionEndInput(t, tr, filepath.Join(project, "sub")), "hook", "session-end")
	if err != nil || out != "" || !strings.Contains(errOut, "wrap-up queued") {
		t.Fatalf("session-end: err %v, stdout %q, stderr %q", err, out, errOut)
	}
	q, _ := filepath.Glob(filepath.Join(coaching.QueueDir(data), "*.json"))
	if len(q) != 1 {
		t.Fatalf("queue = %v, want one file", q)
	}
	var item coaching.QueuedWrapUp
	if err := json.Unmarshal(mustRead(t, q[0]), &item); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(item.Transcript, "developer: ") || !strings.Contains(item.Transcript, rustPortTask) || item.SessionID != "" || item.QueuedAt.IsZero() {
		t.Errorf("queued %+v", item)
	}
}

// TestSessionEndWrapsUpOnceWithServer: the server is running: session-end
// runs the wrap-up through paige_end_session (gaps, kata, Dreyfus stored,
// session completed); a second session-end runs nothing more.
func TestSessionEndWrapsUpOnceWithServer(t *testing.T) {
	serverModel := newClaude(t)
	s := startServe(t, modelEnv(t, serverModel))
	if msg := callTool(t, s.mcpClient(t), "paige_start_session", map[string]any{"goal": "fix login"}, nil); msg != "" {
		t.Fatal(msg)
	}
	serverModel.Enqueue(wrapUpAnswers()...)
	port := s.base[strings.LastIndex(s.base, ":")+1:]
	vars := map[string]string{"HOME": t.TempDir(), "DATA_DIR": s.data, "PORT": port, "PAIGE_LEARN_QUEUE": "off", "PAIGE_WRAPUP": "inline"}
	in := sessionEndInput(t, unmodifiedTranscript(t), s.project)
	_, errOut, err := runCLI(t, vars, in, "hook", "session-end")
	if err != nil || !strings.Contains(errOut, "wrap-up:") {
		t.Fatalf("session-end: %v\n%s", err, errOut)
	}
	db := openDB(t, s)
	sessions, _ := db.Sessions(context.Background(), store.SessionFilter{})
	if len(sessions) != 1 || sessions[0].Status != coach.SessionCompleted {
		t.Fatalf("sessions = %+v", sessions)
	}
	gaps, _ := db.KnowledgeGaps(context.Background(), storeGapFilter(sessions[0].ID))
	if len(gaps) != 1 {
		t.Errorf("gaps = %+v", gaps)
	}
	calls := len(serverModel.Requests())
	if calls != 3 {
		t.Errorf("wrap-up made %d model calls, want 3", calls)
	}
	sent := false
	for _, r := range serverModel.Requests() {
		sent = sent || strings.Contains(r.LastUserText(), "Python project to Rust")
	}
	if !sent {
		t.Error("no wrap-up call got the condensed transcript")
	}
	runCLI(t, vars, in, "hook", "session-end")
	if n := len(serverModel.Requests()); n != calls {
		t.Errorf("a second session-end made %d more model calls", n-calls)
	}
	if q, _ := filepath.Glob(filepath.Join(coaching.QueueDir(s.data), "*.json")); len(q) != 0 {
		t.Errorf("queued %v although the server ran it", q)
	}
}

func TestCondenseTranscript(t *testing.T) {
	if got := condenseTranscript(""); got != "(no transcript)" {
		t.Errorf("no path: %q", got)
	}
	if got := condenseTranscript(filepath.Join(t.TempDir(), "gone.jsonl")); !strings.HasPrefix(got, "(transcript unreadable") {
		t.Errorf("missing file: %q", got)
	}
	p := filepath.Join(t.TempDir(), "t.jsonl")
	var b strings.Builder
	for i := range 3000 {
		line, _ := json.Marshal(map[string]any{"type": "user", "uuid": "u" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strings.Repeat("0", i),
			"message": map[string]any{"role": "user", "content": "question number " + strings.Repeat("q", 20)}})
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	got := condenseTranscript(p)
	if len(got) > maxWrapUpTranscript || !strings.HasPrefix(got, "developer: question number") {
		t.Errorf("condensed %d bytes starting %.60q", len(got), got)
	}
}
