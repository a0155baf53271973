package cli

import (
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// An upstream error body never reaches the MCP client: the coaching
// pipeline's tool error says what failed in Paige's words.
func TestServeCoachingPipelineHidesUpstreamBody(t *testing.T) {
	const secret = "SECRET-MARKER-acct_8f3e"
	fake := newClaude(t)
	s := startServe(t, modelEnv(t, fake))
	editor, cs := s.ws(t), s.mcpClient(t)
	startSession(t, editor, "upstream")
	fake.Enqueue(llmtest.Error(400, "invalid_request_error", secret))
	msg := callTool(t, cs, "paige_run_coaching_pipeline", pipelineArgs, nil)
	if strings.Contains(msg, secret) || !strings.Contains(msg, "coach agent failed: The model provider rejected the request.") {
		t.Errorf("tool error = %q", msg)
	}
}
