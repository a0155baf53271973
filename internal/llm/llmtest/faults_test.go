package llmtest_test

import (
	"net/http/httptest"
	"testing"

	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// OllamaReply writes the line Ollama's /api/chat ends a reply with.
func TestOllamaReply(t *testing.T) {
	rec := httptest.NewRecorder()
	llmtest.OllamaReply(`{"items":[`, "length")(rec, httptest.NewRequest("POST", "/api/chat", nil))
	want := `{"message":{"role":"assistant","content":"{\"items\":["},"done":true,"done_reason":"length"}` + "\n"
	if got := rec.Body.String(); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
