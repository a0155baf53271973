package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/paige-dev/paige/internal/llm"
)

// Fault is a model server that misbehaves, for a client's fault tests:
// Handler answers every request, and the client's error must classify
// ([llm.Classify]) as Want.
type Fault struct {
	Name    string
	Handler http.HandlerFunc
	Want    llm.Kind
}

// HangHandler reads the request and answers nothing until the client gives up:
// the client's own deadline must end the call.
func HangHandler(_ http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body) // a disconnect is noticed once the body is read
	<-r.Context().Done()
}

// OllamaReply answers with one Ollama /api/chat message of content that is
// done for reason ("stop", "length"), followed by a newline.
func OllamaReply(content, reason string) http.HandlerFunc {
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	b, err := json.Marshal(struct {
		Message    message `json:"message"`
		Done       bool    `json:"done"`
		DoneReason string  `json:"done_reason"`
	}{message{"assistant", content}, true, reason})
	if err != nil {
		panic(err) // unreachable: the value is plain strings
	}
	b = append(b, '\n')
	return func(w http.ResponseWriter, _ *http.Request) { w.Write(b) }
}

// RunFaults runs a subtest per fault: it starts a server answering with
// the fault's Handler, passes its URL to call, and fails the subtest
// unless the error call returns classifies as the fault's Want.
func RunFaults(t *testing.T, faults []Fault, call func(t *testing.T, url string) error) {
	t.Helper()
	for _, f := range faults {
		t.Run(f.Name, func(t *testing.T) {
			srv := httptest.NewServer(f.Handler)
			t.Cleanup(srv.Close)
			err := call(t, srv.URL)
			if got := llm.Classify(err); got != f.Want {
				t.Fatalf("got %v (kind %q), want %q", err, got, f.Want)
			}
		})
	}
}
