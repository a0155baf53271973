package chat

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// A whole reply is retried after an overload, under the client's policy.
func TestClaudeReplyRetries(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Error(529, "overloaded_error", "busy").WithRetryAfter(0), llmtest.Text("Second time lucky."))
	r, err := claude(t, srv).Reply(context.Background(), "sys", []Turn{{Role: "user", Content: "hi"}})
	if err != nil || r.Text != "Second time lucky." {
		t.Fatalf("got %+v, %v; want the retried reply", r, err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("requests: got %d, want 2", n)
	}
}

// A stream that fails before any text is retried; the reader sees only
// the successful attempt's text.
func TestClaudeStreamRetriesBeforeText(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Error(429, "rate_limit_error", "slow").WithHeader("retry-after-ms", "5"), llmtest.Text("Fresh start."))
	var got strings.Builder
	r, err := claude(t, srv).Stream(context.Background(), "sys", []Turn{{Role: "user", Content: "hi"}},
		func(d string) error { got.WriteString(d); return nil })
	if err != nil || r.Text != "Fresh start." || got.String() != "Fresh start." {
		t.Fatalf("got %+v, %v, deltas %q", r, err, got.String())
	}
	if reqs := srv.Requests(); len(reqs) != 2 || !reqs[1].Stream {
		t.Errorf("requests: got %d, want 2 streaming requests", len(reqs))
	}
}

// Once text reached the reader, a mid-stream error is not retried (the
// reply would be duplicated), and it is typed: errors.As finds the kind.
func TestClaudeStreamNotRetriedAfterText(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("Half a reply that goes on").WithStreamError("overloaded_error", "Overloaded"), llmtest.Text("never"))
	var deltas int
	_, err := claude(t, srv).Stream(context.Background(), "sys", []Turn{{Role: "user", Content: "hi"}},
		func(string) error { deltas++; return nil })
	var over *llm.OverloadedError
	if !errors.As(err, &over) || llm.Classify(err) != llm.KindOverloaded {
		t.Fatalf("got %v (%T), want an *llm.OverloadedError", err, err)
	}
	if n := len(srv.Requests()); n != 1 || deltas == 0 {
		t.Errorf("requests %d, deltas %d: want 1 request and some text", n, deltas)
	}
}
