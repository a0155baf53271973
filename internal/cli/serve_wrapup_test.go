package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/coaching"
	"github.com/paige-dev/paige/internal/coach/mcpapi"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/coach/wsapi"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// failingClaude is a fake model answering every call with a 400: each
// wrap-up step fails fast (best-effort) and the wrap-up still completes.
func failingClaude(t *testing.T) *llmtest.Server {
	fake := llmtest.NewServer(t)
	fake.Handle(func(llmtest.Request) llmtest.Response { return badRequest() })
	return fake
}

func wrapUpStatus(t *testing.T, db *store.Store, id string) store.WrapUpStatus {
	t.Helper()
	st, err := db.SessionWrapUp(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// The editor ends the session first: the server runs its wrap-up at once,
// by itself (session:completed, every step attempted), and a later
// paige_end_session answers alreadyCompleted without a model call; the
// wrap-up runs once.
func TestServeWrapUpAfterEditorEnd(t *testing.T) {
	fake := failingClaude(t)
	s, db, editor, sid := startCoaching(t, fake, "editor ends first")
	cs := s.mcpClient(t)
	editor.send(wsapi.TypeSessionEnd, map[string]any{})
	editor.expect(wsapi.TypeSessionEnded, nil)
	var done wsapi.SessionCompleted
	editor.expect(wsapi.TypeSessionCompleted, &done)
	if done.SessionID != sid {
		t.Errorf("session:completed for %q, want %q", done.SessionID, sid)
	}
	calls := len(fake.Requests())
	if calls != 3 || wrapUpStatus(t, db, sid) != store.WrapUpDone {
		t.Errorf("model calls = %d (want 3), status %s", calls, wrapUpStatus(t, db, sid))
	}
	var again mcpapi.EndSessionOut
	if msg := callTool(t, cs, "paige_end_session", map[string]any{"sessionTranscript": "t"}, &again); msg != "" {
		t.Fatalf("paige_end_session after session:end: %s", msg)
	}
	if !again.AlreadyCompleted || len(fake.Requests()) != calls {
		t.Errorf("paige_end_session after the wrap-up = %+v, model calls %d", again, len(fake.Requests()))
	}
}

// Offline, a wrap-up after session:end answers "no model configured" and
// stays pending; the next start with a model runs it, and runs a wrap-up
// the SessionEnd hook queued for the session left active, with its
// transcript. Each runs once.
func TestServeWrapUpPendingAtStart(t *testing.T) {
	env := serveEnv(t)
	s1 := startServe(t, env)
	editor, cs := s1.ws(t), s1.mcpClient(t)
	ended := startSession(t, editor, "ended offline")
	editor.send(wsapi.TypeSessionEnd, map[string]any{})
	editor.expect(wsapi.TypeSessionEnded, nil)
	if msg := callTool(t, cs, "paige_end_session", map[string]any{"sessionTranscript": "x"}, nil); !strings.Contains(msg, "no model configured") {
		t.Errorf("offline: %q", msg)
	}
	active := startSession(t, editor, "left active")
	if err := s1.shutdown(t); err != nil {
		t.Fatal(err)
	}
	queued, err := coaching.QueueWrapUp(env["DATA_DIR"], coaching.QueuedWrapUp{Transcript: "QUEUED-TRANSCRIPT"})
	if err != nil {
		t.Fatal(err)
	}

	fake := failingClaude(t)
	menv := modelEnv(t, fake)
	for _, k := range []string{"HOME", "PROJECT_DIR", "DATA_DIR"} {
		menv[k] = env[k]
	}
	s2 := startServe(t, menv)
	db := openDB(t, s2)
	deadline := time.Now().Add(testWait)
	for wrapUpStatus(t, db, ended) != store.WrapUpDone || wrapUpStatus(t, db, active) != store.WrapUpDone {
		if time.Now().After(deadline) {
			t.Fatalf("wrap-ups not run: ended %s, active %s", wrapUpStatus(t, db, ended), wrapUpStatus(t, db, active))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if row, _ := db.Session(context.Background(), active); row.Status != coach.SessionCompleted {
		t.Errorf("queued session status = %s", row.Status)
	}
	if _, err := os.Stat(queued); !os.IsNotExist(err) {
		t.Errorf("queue file still there: %v", err)
	}
	if n := len(fake.Requests()); n != 6 {
		t.Errorf("model calls = %d, want 6 (two wrap-ups of three steps)", n)
	}
	sawTranscript := false
	for _, r := range fake.Requests() {
		sawTranscript = sawTranscript || strings.Contains(string(r.Raw), "QUEUED-TRANSCRIPT")
	}
	if !sawTranscript {
		t.Error("the queued transcript reached no model call")
	}
	actionsOf(t, db, ended, coach.ActionSessionEnd, 1)
	actionsOf(t, db, active, coach.ActionSessionEnd, 1)
	if left, _ := filepath.Glob(filepath.Join(coaching.QueueDir(env["DATA_DIR"]), "*")); len(left) != 0 {
		t.Errorf("queue dir = %v", left)
	}
}
