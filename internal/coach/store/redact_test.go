package store

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/coach"
)

// TestSessionTitleAndActionsStoreNoSecret covers the two text columns
// written from outside: sessions.issue_title and action_log.data, the
// latter both alone and in a batch transaction (the action queue's path).
func TestSessionTitleAndActionsStoreNoSecret(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	sess, err := s.CreateSession(ctx, NewSession{ProjectDir: "/p", IssueTitle: "Rotate sk-ant-api03-abcdefghijkl leaked in CI"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Rotate [REDACTED:anthropic-key] leaked in CI"; sess.IssueTitle != want {
		t.Errorf("returned title %q, want %q", sess.IssueTitle, want)
	}
	a, err := s.InsertAction(ctx, sess.ID, coach.ActionMCPToolCall, json.RawMessage(`{"toolName":"x","token":"abcd1234efgh"}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(a.Data), "abcd1234efgh") {
		t.Errorf("returned data %s", a.Data)
	}
	err = s.Update(ctx, func(tx *Tx) error {
		_, err := tx.InsertAction(ctx, sess.ID, coach.ActionCoachingMessage, json.RawMessage(`{"text":"the password is hunter22"}`))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	stored := strings.Join(column(t, s.DB(), `SELECT coalesce(issue_title, '') FROM sessions
		UNION ALL SELECT coalesce(data, '') FROM action_log`), "\n")
	for _, secret := range []string{"abcdefghijkl", "abcd1234efgh", "hunter22"} {
		if strings.Contains(stored, secret) {
			t.Errorf("stored %q:\n%s", secret, stored)
		}
	}
	if n := strings.Count(stored, "[REDACTED:"); n != 3 {
		t.Errorf("%d markers stored, want 3:\n%s", n, stored)
	}
}
