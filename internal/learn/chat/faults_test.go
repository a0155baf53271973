package chat

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm"
)

// Ollama chat: a hang ends at the deadline, a reply cut at the token limit
// or an empty one is an error, and none is stored as the answer.
func TestOllamaChatFaults(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    llm.Kind
	}{
		{"hang", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // a disconnect is noticed once the body is read
			<-r.Context().Done()
		}, llm.KindTimeout},
		{"length", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"message":{"role":"assistant","content":"half"},"done":true,"done_reason":"length"}` + "\n"))
		}, llm.KindTruncated},
		{"empty", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}` + "\n"))
		}, llm.KindInvalid},
	}
	for _, tt := range tests {
		for _, streamed := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				srv := httptest.NewServer(tt.handler)
				t.Cleanup(srv.Close)
				s := newService(t, &Ollama{URL: srv.URL, Model: "m", Timeout: 100 * time.Millisecond})
				ss, err := s.CreateSession(context.Background(), "")
				if err != nil {
					t.Fatal(err)
				}
				if streamed {
					_, err = s.Stream(context.Background(), ss.ID, "hi", func(string) error { return nil })
				} else {
					_, err = s.Send(context.Background(), ss.ID, "hi")
				}
				if got := llm.Classify(err); got != tt.want {
					t.Fatalf("got %v (kind %q), want %q", err, got, tt.want)
				}
				msgs, _ := s.Messages(context.Background(), ss.ID)
				if len(msgs) != 1 || msgs[0].Role != "user" {
					t.Errorf("stored %+v, want only the user's message", msgs)
				}
			})
		}
	}
}
