package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

var okReply = llmtest.JSON(map[string]any{"decision": "go", "confidence": 0.5, "note": nil, "tags": []string{}})

func TestCallRetriesTransient(t *testing.T) {
	tests := []struct {
		name string
		fail llmtest.Response
	}{
		{"429", llmtest.Error(429, "rate_limit_error", "slow down").WithRetryAfter(1)},
		{"500", llmtest.Error(500, "api_error", "boom")},
		{"503", llmtest.Error(503, "api_error", "unavailable")},
		{"529 overloaded", llmtest.Error(529, "overloaded_error", "Overloaded")},
		{"408", llmtest.Error(408, "timeout_error", "request timeout")},
		{"409", llmtest.Error(409, "api_error", "conflict")},
		{"502", llmtest.Error(502, "api_error", "bad gateway")},
		{"504", llmtest.Error(504, "api_error", "gateway timeout")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, rec := newClient(t, s, llm.Options{})
			s.Enqueue(tt.fail, okReply)
			got, _, err := llm.Call[verdict](context.Background(), c, req("x"))
			if err != nil {
				t.Fatalf("got %v, want success on the retry", err)
			}
			if got.Decision != "go" {
				t.Errorf("decoded: got %+v", got)
			}
			recs := rec.all()
			if len(recs) != 2 || recs[0].Err == nil || recs[0].LatencyMs != -1 || recs[1].Err != nil || recs[1].LatencyMs <= 0 {
				t.Errorf("records: got %+v, want a failure then a success", recs)
			}
		})
	}
}

func TestCallGivesUpAfterMaxAttempts(t *testing.T) {
	s := llmtest.NewServer(t)
	c, rec := newClient(t, s, llm.Options{})
	for i := range llm.DefaultMaxAttempts {
		s.Enqueue(llmtest.Error(529, "overloaded_error", fmt.Sprint("overloaded ", i)))
	}
	s.Enqueue(okReply)
	_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
	var apiErr *llm.APIError
	var over *llm.OverloadedError
	want := fmt.Sprint("overloaded ", llm.DefaultMaxAttempts-1)
	if !errors.As(err, &apiErr) || !errors.As(err, &over) || apiErr.StatusCode != 529 || apiErr.Type != "overloaded_error" || apiErr.Message != want {
		t.Fatalf("got %v, want the last 529", err)
	}
	assertRequests(t, s, llm.DefaultMaxAttempts, "")
	assertFailureRecord(t, rec, llm.DefaultMaxAttempts)
}

func TestCallNotRetriedOnPermanentErrors(t *testing.T) {
	for _, tt := range []struct {
		status  int
		errType string
	}{{400, "invalid_request_error"}, {401, "authentication_error"}, {403, "permission_error"}, {404, "not_found_error"}} {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, rec := newClient(t, s, llm.Options{})
			s.Enqueue(llmtest.Error(tt.status, tt.errType, "no"), okReply)
			_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
			var apiErr *llm.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != tt.status || apiErr.Type != tt.errType {
				t.Fatalf("got %v, want API error %d", err, tt.status)
			}
			assertRequests(t, s, 1, "")
			assertFailureRecord(t, rec, 1)
		})
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{Retry: llm.RetryPolicy{BaseDelay: time.Hour, MaxDelay: time.Hour}})
	s.Enqueue(llmtest.Error(500, "api_error", "boom"), okReply)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		s.WaitRequests(t, 1, 5*time.Second)
		cancel()
	}()
	_, _, err := llm.Call[verdict](ctx, c, req("x"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want cancellation during the retry pause", err)
	}
	assertRequests(t, s, 1, "still waiting to retry")
}

func TestConnectionErrorIsTransient(t *testing.T) {
	addr := testenv.ClosedAddr(t)
	rec := &recorder{}
	c := llm.New(llm.Options{APIKey: "k", BaseURL: "http://" + addr, Log: rec, Retry: llm.RetryPolicy{BaseDelay: time.Millisecond}})
	_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
	var conn *llm.ConnectionError
	if !errors.As(err, &conn) || !llm.IsTransient(err) || llm.Classify(err) != llm.KindUnavailable {
		t.Fatalf("got %v (%T), want a transient *llm.ConnectionError", err, err)
	}
	assertFailureRecord(t, rec, llm.DefaultMaxAttempts)
}

func TestNoKeyIsErrNoModelWithoutHTTP(t *testing.T) {
	s := llmtest.NewServer(t)
	rec := &recorder{}
	c := llm.New(llm.Options{BaseURL: s.URL(), Log: rec})
	if c.Available() {
		t.Fatal("Available: got true without a key")
	}
	_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
	if !errors.Is(err, llm.ErrNoModel) || !errors.Is(err, config.ErrNoModel) {
		t.Fatalf("got %v, want ErrNoModel", err)
	}
	assertRequests(t, s, 0, "")
	if n := len(rec.all()); n != 0 {
		t.Errorf("records: got %d, want none (no API call happened)", n)
	}
}

func TestCancelledCallIsRecorded(t *testing.T) {
	s := llmtest.NewServer(t)
	c, rec := newClient(t, s, llm.Options{})
	s.Enqueue(okReply.WithDelay(time.Minute))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, _, err := llm.Call[verdict](ctx, c, req("x"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want deadline exceeded", err)
	}
	assertFailureRecord(t, rec, 1)
	assertRequests(t, s, 1, "an expired caller is not retried")
}

func TestConcurrentCalls(t *testing.T) {
	s := llmtest.NewServer(t)
	c, rec := newClient(t, s, llm.Options{})
	s.Handle(func(r llmtest.Request) llmtest.Response {
		return llmtest.JSON(map[string]any{"decision": "go", "confidence": 0.1, "note": r.LastUserText(), "tags": []string{}})
	})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprint("q", i)
			got, _, err := llm.Call[verdict](context.Background(), c, req(user))
			if err == nil && (got.Note == nil || *got.Note != user) {
				err = fmt.Errorf("call %d: got note %v", i, got.Note)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := len(rec.all()); got != 8 {
		t.Errorf("records: got %d, want 8", got)
	}
}

func TestLoggerErrorDoesNotFailCall(t *testing.T) {
	s := llmtest.NewServer(t)
	c := llm.New(llm.Options{APIKey: "k", BaseURL: s.URL(), Log: llm.CallLoggerFunc(func(context.Context, llm.CallRecord) error {
		return errors.New("db locked")
	})})
	s.Enqueue(okReply)
	if _, _, err := llm.Call[verdict](context.Background(), c, req("x")); err != nil {
		t.Fatalf("got %v, want success despite the logger error", err)
	}
}

func TestEmptyUserMessageRejected(t *testing.T) {
	s := llmtest.NewServer(t)
	c, rec := newClient(t, s, llm.Options{})
	_, _, err := llm.Call[verdict](context.Background(), c, req("  "))
	if err == nil {
		t.Fatal("got nil error for an empty user message")
	}
	assertRequests(t, s, 0, "")
	assertFailureRecord(t, rec, 1)
}

func TestIsTransient(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"429", &llm.APIError{StatusCode: 429}, true},
		{"500", &llm.APIError{StatusCode: 500}, true},
		{"529", &llm.APIError{StatusCode: 529}, true},
		{"408", &llm.APIError{StatusCode: 408}, true},
		{"400", &llm.APIError{StatusCode: 400}, false},
		{"401", &llm.APIError{StatusCode: 401}, false},
		{"403", &llm.APIError{StatusCode: 403}, false},
		{"404", &llm.APIError{StatusCode: 404}, false},
		{"wrapped 503", fmt.Errorf("coach: %w", &llm.APIError{StatusCode: 503}), true},
		{"refusal", &llm.RefusalError{}, false},
		{"max tokens", &llm.MaxTokensError{}, false},
		{"invalid reply", &llm.InvalidReplyError{}, false},
		{"no model", llm.ErrNoModel, false},
		{"canceled", context.Canceled, false},
		{"deadline in url error", &url.Error{Op: "Post", URL: "x", Err: context.DeadlineExceeded}, false},
		{"connection refused", &url.Error{Op: "Post", URL: "x", Err: &net.OpError{Op: "dial", Err: errors.New("refused")}}, true},
		{"unexpected eof", io.ErrUnexpectedEOF, true},
		{"plain", errors.New("x"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := llm.IsTransient(tt.err); got != tt.want {
				t.Errorf("IsTransient(%v): got %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestAttemptTimeoutIsRetried(t *testing.T) {
	s := llmtest.NewServer(t)
	c, rec := newClient(t, s, llm.Options{Timeout: 100 * time.Millisecond})
	s.Enqueue(okReply.WithDelay(time.Minute), okReply)
	got, _, err := llm.Call[verdict](context.Background(), c, req("x"))
	if err != nil || got.Decision != "go" {
		t.Fatalf("got %+v %v, want success on the retry", got, err)
	}
	if recs := rec.all(); len(recs) != 2 || recs[0].LatencyMs != -1 || recs[1].Err != nil {
		t.Errorf("records: got %+v", recs)
	}
}

// A cancellation that lands while a failed attempt's answer is still being
// read is reported as a cancellation too, with the attempt's error kept
// (TestCancelDuringBackoff cancelled there about 1 run in 50).
func TestCancelDuringFailedAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	apiErr := errors.New("api_error: boom")
	err := llm.RetryPolicy{BaseDelay: time.Hour}.Do(ctx, nil, "x", func(context.Context) error {
		cancel()
		return apiErr
	})
	if !errors.Is(err, context.Canceled) || !errors.Is(err, apiErr) {
		t.Fatalf("got %v, want the attempt's error joined with the cancellation", err)
	}
}
