package agent

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func testParams() anthropic.MessageNewParams {
	return anthropic.MessageNewParams{Model: "claude-opus-4-6", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))}}
}

func newTestClient(t *testing.T, baseURL string) (*Client, *[]time.Duration) {
	t.Helper()
	sdk := anthropic.NewClient(option.WithAPIKey("k"), option.WithBaseURL(baseURL), option.WithMaxRetries(0))
	var sleeps []time.Duration
	c := NewClient(&sdk.Messages, &ClientOptions{
		Sleep:  func(_ context.Context, d time.Duration) error { sleeps = append(sleeps, d); return nil },
		Jitter: func() float64 { return 1 },
	})
	return c, &sleeps
}

func TestClientRetries(t *testing.T) {
	s := time.Second
	tests := []struct {
		name       string
		script     []llmtest.Response
		wantOK     bool
		wantSleeps []time.Duration
		wantRetry  int64 // retry_after_ms on failure
	}{
		{"429 honours retry-after", []llmtest.Response{llmtest.Error(429, "rate_limit_error", "slow down").WithRetryAfter(7), llmtest.Text("ok")}, true, []time.Duration{7 * s}, 0},
		{"429 without header backs off", []llmtest.Response{llmtest.Error(429, "rate_limit_error", "x"), llmtest.Text("ok")}, true, []time.Duration{s}, 0},
		{"5xx and 529 back off exponentially", []llmtest.Response{
			llmtest.Error(500, "api_error", "x"), llmtest.Error(529, "overloaded_error", "x"), llmtest.Error(503, "api_error", "x"), llmtest.Text("ok")},
			true, []time.Duration{s, 2 * s, 4 * s}, 0},
		{"gives up after 3 retries", []llmtest.Response{
			llmtest.Error(500, "api_error", "x"), llmtest.Error(500, "api_error", "x"), llmtest.Error(500, "api_error", "x"), llmtest.Error(500, "api_error", "x")},
			false, []time.Duration{s, 2 * s, 4 * s}, 0},
		{"rate limit exhausted keeps retry-after", []llmtest.Response{
			llmtest.Error(429, "rate_limit_error", "x").WithRetryAfter(1), llmtest.Error(429, "rate_limit_error", "x").WithRetryAfter(1),
			llmtest.Error(429, "rate_limit_error", "x").WithRetryAfter(1), llmtest.Error(429, "rate_limit_error", "x").WithRetryAfter(3)},
			false, []time.Duration{s, s, s}, 3000},
		{"400 fails at once", []llmtest.Response{llmtest.Error(400, "invalid_request_error", "bad")}, false, nil, 0},
		{"401 fails at once", []llmtest.Response{llmtest.Error(401, "authentication_error", "bad key")}, false, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := llmtest.NewServer(t)
			fake.Enqueue(tt.script...)
			c, sleeps := newTestClient(t, fake.URL())
			msg, err := c.Create(context.Background(), testParams())
			if (err == nil) != tt.wantOK {
				t.Fatalf("got %v, want ok=%v", err, tt.wantOK)
			}
			if diff := cmp.Diff(tt.wantSleeps, *sleeps); diff != "" {
				t.Errorf("sleeps (-want +got):\n%s", diff)
			}
			if n := len(fake.Requests()); n != len(tt.script) {
				t.Errorf("requests got %d, want %d", n, len(tt.script))
			}
			if tt.wantOK {
				if msg.Content[0].Text != "ok" {
					t.Errorf("got %+v", msg)
				}
				return
			}
			var ce *core.Error
			if !errors.As(err, &ce) || ce.Code != core.CodeAnthropicAPI || ce.Status != 503 {
				t.Fatalf("got %v, want ANTHROPIC_API_ERROR", err)
			}
			if tt.wantRetry != 0 && (ce.Context.RetryAfterMs == nil || *ce.Context.RetryAfterMs != tt.wantRetry) {
				t.Errorf("retry_after_ms got %v, want %d", ce.Context.RetryAfterMs, tt.wantRetry)
			}
		})
	}
}

// TestClientConnectionErrors: an unreachable server is retried three times,
// then reported as a connection error, with a sentence for people.
func TestClientConnectionErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, sleeps := newTestClient(t, url)
	_, err := c.Create(context.Background(), testParams())
	ce, ok := err.(*core.Error)
	if !ok {
		t.Fatalf("got %v", err)
	}
	if ce.Message != "Anthropic API error (connection_error): Transient failure after 3 retries" || len(*sleeps) != 3 {
		t.Errorf("got %v after %d sleeps", err, len(*sleeps))
	}
	checkForPeople(t, ce.SSE(), core.CodeAnthropicAPI, "connection_error",
		"Paige could not reach Claude (a network problem). Your session is saved: resume it to try again.")
}

func TestClientCancelDuringBackoff(t *testing.T) {
	fake := llmtest.NewServer(t)
	fake.Enqueue(llmtest.Error(529, "overloaded_error", "x"))
	sdk := anthropic.NewClient(option.WithAPIKey("k"), option.WithBaseURL(fake.URL()), option.WithMaxRetries(0))
	c := NewClient(&sdk.Messages, &ClientOptions{BaseDelay: time.Hour}) // real sleep
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		fake.WaitRequests(t, 1, 30*time.Second)
		cancel()
	}()
	if _, err := c.Create(ctx, testParams()); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want the context's error", err)
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("requests: got %d, want 1", n)
	}
}

// A pause that would end after the caller's deadline is not taken: the
// overload comes back at once as ANTHROPIC_API_ERROR.
func TestClientPauseBeyondDeadline(t *testing.T) {
	fake := llmtest.NewServer(t)
	fake.Enqueue(llmtest.Error(529, "overloaded_error", "x"))
	sdk := anthropic.NewClient(option.WithAPIKey("k"), option.WithBaseURL(fake.URL()), option.WithMaxRetries(0))
	c := NewClient(&sdk.Messages, &ClientOptions{BaseDelay: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.Create(ctx, testParams())
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Code != core.CodeAnthropicAPI || ctx.Err() != nil {
		t.Errorf("got %v, want ANTHROPIC_API_ERROR before the deadline", err)
	}
}

func TestBackoff(t *testing.T) {
	for _, tt := range []struct {
		jitter  float64
		attempt int
		want    time.Duration
	}{
		{0.75, 0, 750 * time.Millisecond},
		{1.25, 0, 1250 * time.Millisecond},
		{1, 3, 8 * time.Second},
		{1.25, 5, 40 * time.Second},
		{1, 6, 60 * time.Second},
		{1.25, 20, 60 * time.Second},
	} {
		c := NewClient(nil, &ClientOptions{Jitter: func() float64 { return tt.jitter }})
		if got := c.Backoff(tt.attempt); got != tt.want {
			t.Errorf("Backoff(%d) with jitter %v got %v, want %v", tt.attempt, tt.jitter, got, tt.want)
		}
	}
	c := NewClient(nil, nil)
	for range 100 {
		if d := c.Backoff(0); d < 750*time.Millisecond || d >= 1250*time.Millisecond {
			t.Fatalf("jittered backoff %v outside ±25 %%", d)
		}
	}
}
