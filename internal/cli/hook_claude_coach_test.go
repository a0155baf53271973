package cli

import (
	"context"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
)

// TestPreToolUseWithCoachStore checks the hook against the coach's own
// store, open as a running server holds it (WAL, writer connected): denied
// while the session is active, allowed once it is completed.
func TestPreToolUseWithCoachStore(t *testing.T) {
	ctx := context.Background()
	data, project := t.TempDir(), t.TempDir()
	st, err := store.Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, err := st.CreateSession(ctx, store.NewSession{ProjectDir: project})
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"DATA_DIR": data}
	in := preToolUseJSON(t, project, "Edit", map[string]string{"file_path": project + "/main.go"})
	if out, errOut := runClaudeHook(t, vars, in, "pre-tool-use"); out == "" || errOut != "" {
		t.Fatalf("active session: stdout %q stderr %q, want a deny", out, errOut)
	}
	if _, err := st.SetSessionStatus(ctx, sess.ID, coach.SessionCompleted); err != nil {
		t.Fatal(err)
	}
	if out, errOut := runClaudeHook(t, vars, in, "pre-tool-use"); out != "" || errOut != "" {
		t.Errorf("completed session: stdout %q stderr %q, want allowed", out, errOut)
	}
}
