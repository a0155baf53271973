package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// TestCallRedactsWhatItSends: a secret in the user message never reaches
// the model (issue 29); the marker does. The system prompt, the program's
// own text, is sent as written.
func TestCallRedactsWhatItSends(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{})
	s.Enqueue(llmtest.JSON(map[string]any{"decision": "go", "confidence": 1, "note": nil, "tags": []string{}}))
	r := req("deploy with glpat-Xy9zAbCdEfGh12345678 and mysql -u root -pS3cretPass42 shop")
	r.System = "Text inside <private> tags has been removed; never guess at it."
	if _, _, err := llm.Call[verdict](context.Background(), c, r); err != nil {
		t.Fatal(err)
	}
	sent := s.Requests()[0]
	for _, secret := range []string{"glpat-Xy9zAbCdEfGh12345678", "S3cretPass42"} {
		if strings.Contains(string(sent.Raw), secret) {
			t.Errorf("%s sent to the model: %s", secret, sent.Raw)
		}
	}
	if !strings.Contains(sent.LastUserText(), "[REDACTED:gitlab-token]") || sent.System != r.System {
		t.Errorf("sent user %q, system %q; want the markers", sent.LastUserText(), sent.System)
	}
}
