package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// pauses records the policy's pauses instead of sleeping.
type pauses struct {
	mu sync.Mutex
	d  []time.Duration
}

func (p *pauses) sleep(ctx context.Context, d time.Duration) error {
	p.mu.Lock()
	p.d = append(p.d, d)
	p.mu.Unlock()
	return ctx.Err()
}

func (p *pauses) all() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Duration(nil), p.d...)
}

// policyClient is a client whose pauses are recorded, with a fixed jitter.
func policyClient(t *testing.T, s *llmtest.Server, p llm.RetryPolicy) (*llm.Client, *pauses) {
	t.Helper()
	ps := &pauses{}
	p.Sleep = ps.sleep
	if p.Jitter == nil {
		p.Jitter = func() float64 { return 1 }
	}
	c, _ := newClient(t, s, llm.Options{Retry: p})
	return c, ps
}

// The server's wait wins over the backoff, in each of its forms, and is
// capped; a wait the header does not give usefully falls back to backoff.
func TestRetryAfterForms(t *testing.T) {
	date := func(d time.Duration) string { return time.Now().Add(d).UTC().Format(http.TimeFormat) }
	tests := []struct {
		name     string
		headers  [][2]string
		min, max time.Duration
	}{
		{"seconds", [][2]string{{"retry-after", "7"}}, 7 * time.Second, 7 * time.Second},
		{"fractional seconds", [][2]string{{"retry-after", "1.5"}}, 1500 * time.Millisecond, 1500 * time.Millisecond},
		{"http date", [][2]string{{"retry-after", date(20 * time.Second)}}, 18 * time.Second, 20 * time.Second},
		{"milliseconds", [][2]string{{"retry-after-ms", "250"}}, 250 * time.Millisecond, 250 * time.Millisecond},
		{"ms wins over seconds", [][2]string{{"retry-after", "9"}, {"retry-after-ms", "300"}}, 300 * time.Millisecond, 300 * time.Millisecond},
		{"capped seconds", [][2]string{{"retry-after", "3600"}}, 30 * time.Second, 30 * time.Second},
		{"capped date", [][2]string{{"retry-after", date(2 * time.Hour)}}, 30 * time.Second, 30 * time.Second},
		{"garbage: backoff", [][2]string{{"retry-after", "soon"}}, 2 * time.Second, 2 * time.Second},
		{"negative: backoff", [][2]string{{"retry-after", "-4"}}, 2 * time.Second, 2 * time.Second},
		{"past date: backoff", [][2]string{{"retry-after", date(-time.Hour)}}, 2 * time.Second, 2 * time.Second},
		{"absent: backoff", nil, 2 * time.Second, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, ps := policyClient(t, s, llm.RetryPolicy{BaseDelay: 2 * time.Second, MaxRetryAfter: 30 * time.Second})
			fail := llmtest.Error(429, "rate_limit_error", "slow down")
			for _, h := range tt.headers {
				fail = fail.WithHeader(h[0], h[1])
			}
			s.Enqueue(fail, okReply)
			if _, _, err := llm.Call[verdict](context.Background(), c, req("x")); err != nil {
				t.Fatalf("got %v, want success on the retry", err)
			}
			got := ps.all()
			if len(got) != 1 || got[0] < tt.min || got[0] > tt.max {
				t.Errorf("pauses: got %v, want one in [%v, %v]", got, tt.min, tt.max)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 25, 2, 0, 0, 0, time.UTC)
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	tests := []struct {
		name string
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{"nil", nil, 0, false},
		{"seconds", h("retry-after", "3"), 3 * time.Second, true},
		{"date", h("retry-after", now.Add(90*time.Second).Format(http.TimeFormat)), 90 * time.Second, true},
		{"ms", h("retry-after-ms", "12.5"), 12500 * time.Microsecond, true},
		{"bad ms falls back", h("retry-after-ms", "x", "retry-after", "2"), 2 * time.Second, true},
		{"zero", h("retry-after", "0"), 0, false},
		{"NaN", h("retry-after", "NaN"), 0, false},
		{"Inf", h("retry-after", "+Inf"), 0, false},
		{"huge", h("retry-after", "1e300"), 1e6 * time.Second, true},
		{"past", h("retry-after", now.Add(-time.Second).Format(http.TimeFormat)), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := llm.ParseRetryAfter(tt.h, now)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %v %v, want %v %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"1", "0.5", "-1", "Wed, 25 Nov 2026 02:00:00 GMT", "1e400", "", "NaN"} {
		f.Add(s, s)
	}
	now := time.Now()
	f.Fuzz(func(t *testing.T, sec, ms string) {
		h := http.Header{}
		h.Set("retry-after", sec)
		h.Set("retry-after-ms", ms)
		d, ok := llm.ParseRetryAfter(h, now)
		if ok != (d > 0) || d < 0 {
			t.Fatalf("ParseRetryAfter(%q, %q) = %v, %v", sec, ms, d, ok)
		}
	})
}

// Without retry-after, pauses double from BaseDelay, times the jitter,
// up to MaxDelay, for MaxAttempts attempts in all.
func TestExponentialBackoffWithJitter(t *testing.T) {
	s := llmtest.NewServer(t)
	c, ps := policyClient(t, s, llm.RetryPolicy{MaxAttempts: 6, BaseDelay: time.Second, MaxDelay: 5 * time.Second,
		Jitter: func() float64 { return 0.8 }})
	for range 6 {
		s.Enqueue(llmtest.Error(500, "api_error", "boom"))
	}
	_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
	var se *llm.ServerError
	if !errors.As(err, &se) {
		t.Fatalf("got %v, want *llm.ServerError", err)
	}
	want := []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond, 5 * time.Second, 5 * time.Second}
	if got := ps.all(); !slices.Equal(got, want) {
		t.Errorf("pauses: got %v, want %v", got, want)
	}
	assertRequests(t, s, 6, "")
	p := llm.RetryPolicy{}
	for n := range 4 {
		if d := p.Backoff(n); d < time.Duration(float64(time.Second<<n)*0.75) || d >= time.Duration(float64(time.Second<<n)*1.25) {
			t.Errorf("default Backoff(%d) = %v, want within ±25 %% of %v", n, d, time.Second<<n)
		}
	}
}

// A pause that would outlast the caller's deadline is not taken: the
// rate-limit error comes back at once, typed, instead of a timeout later.
func TestPauseBeyondDeadlineGivesUp(t *testing.T) {
	s := llmtest.NewServer(t)
	c, ps := policyClient(t, s, llm.RetryPolicy{MaxRetryAfter: time.Hour})
	s.Enqueue(llmtest.Error(429, "rate_limit_error", "slow down").WithRetryAfter(600), okReply)
	r := req("x")
	r.Timeout = 30 * time.Second
	_, _, err := llm.Call[verdict](context.Background(), c, r)
	var rl *llm.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != 600*time.Second || llm.Classify(err) != llm.KindRateLimited {
		t.Fatalf("got %v, want the *llm.RateLimitError with its retry-after", err)
	}
	if n, p := len(s.Requests()), ps.all(); n != 1 || len(p) != 0 {
		t.Errorf("requests %d, pauses %v: want 1 and none", n, p)
	}
}

// Each failure has its own type, reachable with errors.As through any
// wrapping, and its kind; the transient ones are retried, the others not.
func TestTypedErrors(t *testing.T) {
	type check func(error) bool
	as := func(target any) check { return func(err error) bool { return errors.As(err, target) } }
	tests := []struct {
		status    int
		errType   string
		is        check
		kind      llm.Kind
		transient bool
	}{
		{429, "rate_limit_error", as(new(*llm.RateLimitError)), llm.KindRateLimited, true},
		{529, "overloaded_error", as(new(*llm.OverloadedError)), llm.KindOverloaded, true},
		{503, "api_error", as(new(*llm.OverloadedError)), llm.KindOverloaded, true},
		{500, "api_error", as(new(*llm.ServerError)), llm.KindUnavailable, true},
		{502, "api_error", as(new(*llm.ServerError)), llm.KindUnavailable, true},
		{504, "api_error", as(new(*llm.ServerError)), llm.KindTimeout, true},
		{408, "timeout_error", as(new(*llm.ServerError)), llm.KindTimeout, true},
		{409, "api_error", as(new(*llm.ServerError)), llm.KindUnavailable, true},
		{401, "authentication_error", as(new(*llm.AuthError)), llm.KindAuth, false},
		{403, "permission_error", as(new(*llm.AuthError)), llm.KindAuth, false},
		{400, "invalid_request_error", as(new(*llm.InvalidRequestError)), llm.KindRejected, false},
		{404, "not_found_error", as(new(*llm.InvalidRequestError)), llm.KindRejected, false},
		{413, "request_too_large", as(new(*llm.InvalidRequestError)), llm.KindRejected, false},
	}
	for _, tt := range tests {
		t.Run(tt.errType+"/"+http.StatusText(tt.status), func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, _ := policyClient(t, s, llm.RetryPolicy{MaxAttempts: 2})
			s.Enqueue(llmtest.Error(tt.status, tt.errType, "no"), llmtest.Error(tt.status, tt.errType, "no"))
			_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
			wrapped := errors.Join(errors.New("caller context"), err)
			var apiErr *llm.APIError
			if !tt.is(wrapped) || !errors.As(wrapped, &apiErr) || apiErr.StatusCode != tt.status {
				t.Fatalf("got %v (%T), want the typed error of %d", err, err, tt.status)
			}
			if got := llm.Classify(err); got != tt.kind {
				t.Errorf("kind: got %q, want %q", got, tt.kind)
			}
			want := 1
			if tt.transient {
				want = 2
			}
			if n := len(s.Requests()); n != want || llm.IsTransient(err) != tt.transient {
				t.Errorf("requests %d, transient %v: want %d, %v", n, llm.IsTransient(err), want, tt.transient)
			}
		})
	}
	for name, tt := range map[string]struct {
		err  error
		is   check
		kind llm.Kind
	}{
		"timeout":   {&llm.TimeoutError{CallType: "x", After: time.Second}, as(new(*llm.TimeoutError)), llm.KindTimeout},
		"refusal":   {&llm.RefusalError{}, as(new(*llm.RefusalError)), llm.KindRefused},
		"truncated": {&llm.MaxTokensError{}, as(new(*llm.MaxTokensError)), llm.KindTruncated},
		"invalid":   {&llm.InvalidReplyError{}, as(new(*llm.InvalidReplyError)), llm.KindInvalid},
		"conn":      {llm.WrapError(&net.OpError{Op: "dial", Err: errors.New("refused")}), as(new(*llm.ConnectionError)), llm.KindUnavailable},
	} {
		if w := errors.Join(errors.New("ctx"), tt.err); !tt.is(w) || llm.Classify(w) != tt.kind {
			t.Errorf("%s: errors.As or kind (%q) fails for %v", name, llm.Classify(w), w)
		}
	}
}

// A connection reset mid-request is retried like any transient failure.
func TestConnectionResetIsRetried(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Enqueue(okReply)
	target, _ := url.Parse(s.URL())
	proxy := httputil.NewSingleHostReverseProxy(target)
	var n atomic.Int32
	front := http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0) // RST, not FIN
				}
				conn.Close()
			}
			return
		}
		proxy.ServeHTTP(w, r)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = front.Serve(ln) }()
	t.Cleanup(func() { front.Close() })
	rec := &recorder{}
	c := llm.New(llm.Options{APIKey: "k", BaseURL: "http://" + ln.Addr().String(), Log: rec,
		Retry: llm.RetryPolicy{BaseDelay: time.Millisecond}})
	got, _, err := llm.Call[verdict](context.Background(), c, req("x"))
	if err != nil || got.Decision != "go" {
		t.Fatalf("got %+v, %v; want success after the reset", got, err)
	}
	if recs := rec.all(); len(recs) != 2 || recs[0].Err == nil || !llm.IsTransient(recs[0].Err) {
		t.Errorf("records: got %+v, want a connection failure then a success", recs)
	}
}

// Permanent stops the retries whatever the error.
func TestPermanentIsNotRetried(t *testing.T) {
	calls := 0
	base := &llm.OverloadedError{APIError: &llm.APIError{StatusCode: 529}}
	err := llm.RetryPolicy{Sleep: func(context.Context, time.Duration) error { return nil }}.
		Do(context.Background(), nil, "t", func(context.Context) error { calls++; return llm.Permanent(base) })
	var over *llm.OverloadedError
	if calls != 1 || !errors.As(err, &over) {
		t.Errorf("calls %d, err %v: want 1 call and the overloaded error", calls, err)
	}
	if llm.Permanent(nil) != nil {
		t.Error("Permanent(nil) != nil")
	}
}
