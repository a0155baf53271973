package extract

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// A hanging Ollama ends at the extractor's deadline with a typed timeout;
// HTTP errors, truncation and bad JSON are typed with their kind.
func TestOllamaFaults(t *testing.T) {
	faults := []llmtest.Fault{
		{Name: "hang", Handler: llmtest.HangHandler, Want: llm.KindTimeout},
		{Name: "500", Handler: func(w http.ResponseWriter, r *http.Request) { http.Error(w, `{"error":"SECRET"}`, 500) }, Want: llm.KindUnavailable},
		{Name: "503", Handler: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":"busy"}`, http.StatusServiceUnavailable)
		}, Want: llm.KindOverloaded},
		{Name: "length", Handler: llmtest.OllamaReply(`{"items":[`, "length"), Want: llm.KindTruncated},
		{Name: "not json", Handler: llmtest.OllamaReply("sure!", "stop"), Want: llm.KindInvalid},
	}
	llmtest.RunFaults(t, faults, func(t *testing.T, url string) error {
		o := &Ollama{URL: url, Model: "m", Timeout: 100 * time.Millisecond}
		_, err := o.Extract(context.Background(), planTurns, "s")
		if llm.Classify(err) == llm.KindTimeout && !errors.Is(err, llm.ErrTimeout) {
			t.Errorf("got %v, want llm.ErrTimeout", err)
		}
		if strings.Contains(llm.UserMessage(err), "SECRET") {
			t.Errorf("user message %q", llm.UserMessage(err))
		}
		return err
	})
}
