package cli

import (
	"bufio"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/ideate/ideatetest"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// TestServeShutdownEndsGhostPathStreams stops `paige serve` (what SIGTERM
// does) while a GhostPath stream waits on the model: the stream receives
// the SERVER_SHUTTING_DOWN error and done {error: true} before it closes,
// and the model call is aborted.
func TestServeShutdownEndsGhostPathStreams(t *testing.T) {
	fake := llmtest.NewServer(t)
	env := modelEnv(t, fake)
	s := startServe(t, env)
	id := ideateCreate(t, s.base, "How might we reduce churn?")
	fake.Enqueue(ideatetest.Gates(), llmtest.Hang())
	stream, err := testHTTP.Get(s.base + "/api/v1/sessions/" + id + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	fake.WaitRequests(t, 2, testWait)
	done := make(chan error, 1)
	go func() { done <- s.shutdown(t) }()
	var last []string
	sc := bufio.NewScanner(stream.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			last = append(last, data)
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if n := len(last); n < 2 || !strings.Contains(last[n-2], `"SERVER_SHUTTING_DOWN"`) || !strings.Contains(last[n-1], `"type":"done","data":{"error":true`) {
		t.Fatalf("stream ended with %v", last)
	}
	fake.WaitCancelled(t, 1, testWait)

	fake.Enqueue(llmtest.Text("Back after the restart."))
	startServe(t, env)
	reqs := fake.WaitRequests(t, 3, testWait)
	if msgs := reqs[2].Messages; len(msgs) != 3 || msgs[1].Role != "assistant" {
		t.Errorf("the resumed call sent %d messages, want 3 (problem, the saved gates turn, its results)", len(msgs))
	}
}
