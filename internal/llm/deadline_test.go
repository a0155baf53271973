package llm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// A hanging model ends with a typed timeout at the call type's deadline,
// retries included, and the fake sees the request abandoned.
func TestHangingModelTimesOut(t *testing.T) {
	for _, name := range []string{"Call"} {
		t.Run(name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, rec := newClient(t, s, llm.Options{Deadlines: map[string]time.Duration{"test_call": 50 * time.Millisecond}})
			s.Handle(func(llmtest.Request) llmtest.Response { return llmtest.Hang() })
			_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
			var te *llm.TimeoutError
			if !errors.As(err, &te) || !errors.Is(err, llm.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("got %v (%T), want *llm.TimeoutError", err, err)
			}
			if te.CallType != "test_call" || te.After != 50*time.Millisecond {
				t.Errorf("got %+v", te)
			}
			if got := llm.Classify(err); got != llm.KindTimeout {
				t.Errorf("kind: got %q, want timeout", got)
			}
			s.WaitCancelled(t, 1, 10*time.Second)
			assertRequests(t, s, 1, "a timed-out call is not retried")
			assertFailureRecord(t, rec, 1)
		})
	}
}

// Request.Timeout overrides the call type's deadline.
func TestRequestTimeoutOverrides(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{})
	s.Enqueue(llmtest.Hang())
	r := req("x")
	r.Timeout = 40 * time.Millisecond
	_, _, err := llm.Call[verdict](context.Background(), c, r)
	var te *llm.TimeoutError
	if !errors.As(err, &te) || te.After != 40*time.Millisecond {
		t.Fatalf("got %v, want a 40ms timeout", err)
	}
}

// A caller that goes away is cancelled, not timed out.
func TestCancelledIsNotTimeout(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{})
	s.Enqueue(llmtest.Hang())
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, _, err := llm.Call[verdict](ctx, c, req("x"))
		errc <- err
	}()
	s.WaitRequests(t, 1, 10*time.Second)
	cancel()
	err := <-errc
	if errors.Is(err, llm.ErrTimeout) || llm.Classify(err) != llm.KindCancelled {
		t.Fatalf("got %v (kind %q), want cancelled", err, llm.Classify(err))
	}
	s.WaitCancelled(t, 1, 10*time.Second)
}

func TestDeadlineTable(t *testing.T) {
	c := llm.New(llm.Options{Deadlines: map[string]time.Duration{llm.CallTypeGhostPath: 7 * time.Second, "chat": 0}})
	tests := []struct {
		callType string
		want     time.Duration
	}{
		{"observer_triage", llm.DeadlineStructured},
		{"memory_retrieval_filter", llm.DeadlineStructured},
		{"explain_this", llm.DeadlineExplain},
		{"coach_agent", llm.DeadlineCoachAgent},
		{"learning_materials", llm.DeadlineWebSearch},
		{llm.CallTypeExtract, llm.DeadlineExtract},
		{llm.CallTypeChat, llm.DeadlineChat}, // a zero override keeps the default
		{llm.CallTypeGhostPath, 7 * time.Second},
		{"anything_else", llm.DeadlineStructured},
	}
	for _, tt := range tests {
		if got := c.Deadline(tt.callType); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.callType, got, tt.want)
		}
	}
}

// Upstream error bodies classify by status and type; the client-facing
// message never carries them.
func TestClassifyHidesUpstreamBodies(t *testing.T) {
	const secret = "SECRET-MARKER-org_12345"
	tests := []struct {
		resp llmtest.Response
		want llm.Kind
	}{
		{llmtest.Error(429, "rate_limit_error", secret), llm.KindRateLimited},
		{llmtest.Error(529, "overloaded_error", secret), llm.KindOverloaded},
		{llmtest.Error(401, "authentication_error", secret), llm.KindAuth},
		{llmtest.Error(400, "invalid_request_error", secret), llm.KindRejected},
		{llmtest.Error(500, "api_error", secret), llm.KindUnavailable},
		{llmtest.Text(secret).WithStop("refusal"), llm.KindRefused},
		{llmtest.Text(`{"decision":"` + secret).WithStop("max_tokens"), llm.KindTruncated},
		{llmtest.Text(secret), llm.KindInvalid},
	}
	for _, tt := range tests {
		t.Run(string(tt.want), func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, _ := newClient(t, s, llm.Options{Retry: llm.RetryPolicy{MaxAttempts: 1}})
			s.Enqueue(tt.resp)
			_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
			if got := llm.Classify(err); got != tt.want {
				t.Fatalf("got kind %q for %v, want %q", got, err, tt.want)
			}
			msg := llm.UserMessage(err)
			if msg == "" || strings.Contains(msg, secret) || strings.Contains(msg, "org_") {
				t.Errorf("user message %q", msg)
			}
		})
	}
}

type providerErr struct{}

func (providerErr) Error() string            { return "ollama: 500: SECRET" }
func (providerErr) ModelErrorKind() llm.Kind { return llm.KindOverloaded }

func TestClassifyOther(t *testing.T) {
	tests := []struct {
		err  error
		want llm.Kind
	}{
		{nil, llm.KindNone},
		{llm.ErrNoModel, llm.KindNoModel},
		{fmt.Errorf("wrapped: %w", providerErr{}), llm.KindOverloaded},
		{context.Canceled, llm.KindCancelled},
		{errors.New("strange"), llm.KindUnknown},
	}
	for _, tt := range tests {
		if got := llm.Classify(tt.err); got != tt.want {
			t.Errorf("%v: got %q, want %q", tt.err, got, tt.want)
		}
	}
	for _, k := range []llm.Kind{llm.KindNoModel, llm.KindTimeout, llm.KindCancelled, llm.KindRefused, llm.KindTruncated,
		llm.KindInvalid, llm.KindRateLimited, llm.KindOverloaded, llm.KindAuth, llm.KindRejected, llm.KindUnavailable, llm.KindUnknown} {
		if k.Message() == "" {
			t.Errorf("%q has no message", k)
		}
	}
}
