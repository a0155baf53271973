package actionlog

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// TestNoSecretStored: an action payload's secrets are neither in action_log
// nor in the published event, and a Claude call whose prompt holds a secret
// leaves none in api_call_log (it stores a hash of the prompt, no text).
func TestNoSecretStored(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.start(t)
	sub := f.l.Bus().Subscribe(8)
	data := map[string]any{"path": "deploy.sh", "password": "hunter22", "error": "export API_KEY=zq8vn3kd7x1 failed"}
	if err := f.l.Log(ctx, coach.ActionExplainCompleted, data); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-sub.C():
		if s := string(e.Data); strings.Contains(s, "hunter22") || strings.Contains(s, "zq8vn3kd7x1") || !strings.Contains(s, `"path":"deploy.sh"`) {
			t.Errorf("published data %s", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}

	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text(`{"ok":true}`))
	c := llm.New(llm.Options{APIKey: "k", BaseURL: srv.URL(), Log: f.l})
	type reply struct {
		OK bool `json:"ok"`
	}
	if _, _, err := llm.Call[reply](ctx, c, llm.Request{CallType: "coach_agent", SessionID: f.sess.ID,
		User: "Review this: const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123'"}); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"action_log", "api_call_log"} {
		rows := dumpTable(t, f.st.DB(), table)
		if rows == "" {
			t.Errorf("%s is empty", table)
		}
		for _, secret := range []string{"hunter22", "zq8vn3kd7x1", "ghp_abcdefghijklmnopqrstuvwxyz0123"} {
			if strings.Contains(rows, secret) {
				t.Errorf("%s stores %q:\n%s", table, secret, rows)
			}
		}
	}
}

// dumpTable returns every cell of table as text, one row a line.
func dumpTable(tb testing.TB, db *sql.DB, table string) string {
	tb.Helper()
	rows, err := db.Query(`SELECT * FROM ` + table)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		cells := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		for _, c := range cells {
			fmt.Fprintf(&b, "%s\t", c)
		}
		b.WriteString("\n")
	}
	return b.String()
}
