package chat

import (
	"context"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// Ollama chat: a hang ends at the deadline, a reply cut at the token limit
// or an empty one is an error, and none is stored as the answer.
func TestOllamaChatFaults(t *testing.T) {
	faults := []llmtest.Fault{
		{Name: "hang", Handler: llmtest.HangHandler, Want: llm.KindTimeout},
		{Name: "length", Handler: llmtest.OllamaReply("half", "length"), Want: llm.KindTruncated},
		{Name: "empty", Handler: llmtest.OllamaReply("", "stop"), Want: llm.KindInvalid},
	}
	for _, streamed := range []bool{false, true} {
		llmtest.RunFaults(t, faults, func(t *testing.T, url string) error {
			s := newService(t, &Ollama{URL: url, Model: "m", Timeout: 100 * time.Millisecond})
			ss, err := s.CreateSession(context.Background(), "")
			if err != nil {
				t.Fatal(err)
			}
			if streamed {
				_, err = s.Stream(context.Background(), ss.ID, "hi", func(string) error { return nil })
			} else {
				_, err = s.Send(context.Background(), ss.ID, "hi")
			}
			msgs, _ := s.Messages(context.Background(), ss.ID)
			if len(msgs) != 1 || msgs[0].Role != "user" {
				t.Errorf("stored %+v, want only the user's message", msgs)
			}
			return err
		})
	}
}
