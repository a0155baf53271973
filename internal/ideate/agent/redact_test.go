package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// TestCreateRedactsWhatItSends: secrets in the user's text and tool
// results never reach the model (issue 29); the system prompt is sent as
// written, and the caller's params are left as they were.
func TestCreateRedactsWhatItSends(t *testing.T) {
	fake := llmtest.NewServer(t)
	fake.Enqueue(llmtest.Text("ok"))
	c, _ := newTestClient(t, fake.URL())
	params := anthropic.MessageNewParams{Model: "claude-opus-4-6", MaxTokens: 100,
		System: []anthropic.TextBlockParam{{Text: "Never echo <private> text; password = \"x\" is an example"}},
		Messages: []anthropic.MessageParam{
			anthropic.NewUserMessage(anthropic.NewTextBlock("deploy with glpat-Xy9zAbCdEfGh12345678")),
			anthropic.NewAssistantMessage(anthropic.NewToolUseBlock("toolu_1", map[string]any{"q": "x"}, "get_context")),
			anthropic.NewUserMessage(anthropic.NewToolResultBlock("toolu_1", "redis://:p4ssW0rdX@cache:6379", false)),
		}}
	if _, err := c.Create(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	raw := string(fake.Requests()[0].Raw)
	for _, secret := range []string{"glpat-Xy9zAbCdEfGh12345678", "p4ssW0rdX"} {
		if strings.Contains(raw, secret) {
			t.Errorf("%s sent to the model", secret)
		}
	}
	if !strings.Contains(raw, "[REDACTED:gitlab-token]") || !strings.Contains(raw, "toolu_1") ||
		fake.Requests()[0].System != "Never echo <private> text; password = \"x\" is an example" {
		t.Errorf("sent %s", raw)
	}
	if params.Messages[0].Content[0].OfText.Text != "deploy with glpat-Xy9zAbCdEfGh12345678" {
		t.Error("the caller's params were changed")
	}
}
