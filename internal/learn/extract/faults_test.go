package extract

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm"
)

// A hanging Ollama ends at the extractor's deadline with a typed timeout;
// HTTP errors, truncation and bad JSON are typed with their kind.
func TestOllamaFaults(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    llm.Kind
	}{
		{"hang", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // a disconnect is noticed once the body is read
			<-r.Context().Done()
		}, llm.KindTimeout},
		{"500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, `{"error":"SECRET"}`, 500) }, llm.KindUnavailable},
		{"503", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":"busy"}`, http.StatusServiceUnavailable)
		}, llm.KindOverloaded},
		{"length", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"message":{"role":"assistant","content":"{\"items\":["},"done":true,"done_reason":"length"}`))
		}, llm.KindTruncated},
		{"not json", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"message":{"role":"assistant","content":"sure!"},"done":true,"done_reason":"stop"}`))
		}, llm.KindInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			t.Cleanup(srv.Close)
			o := &Ollama{URL: srv.URL, Model: "m", Timeout: 100 * time.Millisecond}
			_, err := o.Extract(context.Background(), planTurns, "s")
			if got := llm.Classify(err); got != tt.want {
				t.Fatalf("got %v (kind %q), want %q", err, got, tt.want)
			}
			if tt.want == llm.KindTimeout && !errors.Is(err, llm.ErrTimeout) {
				t.Errorf("got %v, want llm.ErrTimeout", err)
			}
			if strings.Contains(llm.UserMessage(err), "SECRET") {
				t.Errorf("user message %q", llm.UserMessage(err))
			}
		})
	}
}
