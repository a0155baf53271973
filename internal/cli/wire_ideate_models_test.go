package cli

import (
	"bufio"
	"encoding/json"
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
	env := serveEnv(t)
	delete(env, "PAIGE_OFFLINE")
	env["ANTHROPIC_API_KEY"], env["ANTHROPIC_BASE_URL"] = "test-key", fake.URL()
	s := startServe(t, env)
	resp, err := testHTTP.Post(s.base+"/api/v1/sessions", "application/json", strings.NewReader(`{"problem":"How might we reduce churn?"}`))
	if err != nil {
		t.Fatal(err)
	}
	var created map[string]any
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	fake.Enqueue(ideatetest.Gates(), llmtest.Hang())
	stream, err := testHTTP.Get(s.base + "/api/v1/sessions/" + created["id"].(string) + "/stream")
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
