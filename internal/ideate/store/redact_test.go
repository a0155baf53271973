package store

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// TestSecretsNotStored: a secret in a session's problem or in the
// conversation is stored as a marker (issue 29), on every engine.
func TestSecretsNotStored(t *testing.T) {
	onEveryEngine(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		sess := core.Session{ID: NewID(), Problem: "our CI leaks glpat-Xy9zAbCdEfGh12345678; how might we stop it?",
			Messages: json.RawMessage(`[{"role":"user","content":"the db is postgres://app:pa55word@db/x"}]`)}
		if err := s.CreateSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
		p := core.Progress{Messages: append(msgs("a"), json.RawMessage(`{"role":"user","content":"my PIN is 4821"}`)), From: 0}
		if err := s.SaveProgress(ctx, sess.ID, p); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetSession(ctx, sess.ID)
		if err != nil {
			t.Fatal(err)
		}
		stored := got.Problem + string(got.Messages)
		for _, secret := range []string{"glpat-Xy9zAbCdEfGh12345678", "4821"} {
			if strings.Contains(stored, secret) {
				t.Errorf("%s stored: %s", secret, stored)
			}
		}
		if !strings.Contains(got.Problem, "[REDACTED:gitlab-token]") || !strings.Contains(string(got.Messages), "[REDACTED:pin]") {
			t.Errorf("stored %q, %s", got.Problem, got.Messages)
		}
	})
}
