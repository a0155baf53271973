package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// TestChatStoresAndSendsNoSecret: the user's secret is neither stored nor
// sent to the model with the history, the reply's is not stored, nor is one
// in a session name.
func TestChatStoresAndSendsNoSecret(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("Then run: export API_KEY=zq8vn3kd7x1 and retry.").WithUsage(10, 5))
	s := newService(t, claude(t, srv))
	ctx := context.Background()
	ss, err := s.CreateSession(ctx, "deploy with password=hunter22")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Send(ctx, ss.ID, "my token is abc123def and the key is sk-ant-api03-abcdefghijkl"); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"hunter22", "abc123def", "abcdefghijkl", "zq8vn3kd7x1"}
	if raw := string(srv.Requests()[0].Raw); containsAny(raw, secrets) {
		t.Errorf("model request carries a secret:\n%s", raw)
	}
	msgs, err := s.Messages(ctx, ss.ID)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	sessions, _ := s.Sessions(ctx)
	stored := sessions[0].Name + "\n" + msgs[0].Content + "\n" + msgs[1].Content
	if containsAny(stored, secrets) || strings.Count(stored, "[REDACTED:") != 4 {
		t.Errorf("stored:\n%s", stored)
	}
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
