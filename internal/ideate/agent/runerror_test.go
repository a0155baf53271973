package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// upstreamMarker stands in for whatever the API's error body says: it must
// never reach a client.
const upstreamMarker = "sk-ant-SECRET-upstream-detail"

// internals are fragments of developer text a person must never read in a
// run's error event.
var internals = []string{"Anthropic API error", "status ", "_error", "retries", "json:", "Go struct", "):", upstreamMarker}

// checkForPeople fails when the SSE error event is not a sentence for
// people with the wanted message and api_code.
func checkForPeople(t *testing.T, ev core.Event, wantCode core.Code, wantAPICode, wantMsg string) {
	t.Helper()
	if ev.Type != core.EventError {
		t.Fatalf("event %s, want error", ev.Type)
	}
	d := ev.Data.(core.SSEError)
	if d.Code != wantCode || d.APICode != wantAPICode {
		t.Errorf("code %s / api_code %q, want %s / %q", d.Code, d.APICode, wantCode, wantAPICode)
	}
	if d.Message != wantMsg {
		t.Errorf("message:\n got %q\nwant %q", d.Message, wantMsg)
	}
	for _, bad := range internals {
		if strings.Contains(d.Message, bad) {
			t.Errorf("message %q shows %q", d.Message, bad)
		}
	}
}

// TestAPIFailuresAreForPeople goes through the real SDK against llmtest for
// each kind of failed model call: the run's error event says what happened
// and what to do, and the API's type stays in api_code.
func TestAPIFailuresAreForPeople(t *testing.T) {
	e := func(status int, typ string) llmtest.Response { return llmtest.Error(status, typ, upstreamMarker) }
	const saved = " Your session is saved: resume it to try again."
	tests := []struct {
		name, apiCode, want string
		script              []llmtest.Response
	}{
		{"rate limit", "rate_limit", "Claude is receiving too many requests from this API key right now. Wait a minute, then resume the session.",
			[]llmtest.Response{e(429, "rate_limit_error"), e(429, "rate_limit_error"), e(429, "rate_limit_error"), e(429, "rate_limit_error")}},
		{"overloaded", "overloaded_error", "Claude's service is overloaded or having trouble right now." + saved,
			[]llmtest.Response{e(529, "overloaded_error"), e(529, "overloaded_error"), e(529, "overloaded_error"), e(529, "overloaded_error")}},
		{"server error", "api_error", "Claude's service is overloaded or having trouble right now." + saved,
			[]llmtest.Response{e(500, "api_error"), e(500, "api_error"), e(500, "api_error"), e(500, "api_error")}},
		{"bad key", "authentication_error", "Claude did not accept Paige's API key. Check ANTHROPIC_API_KEY and restart Paige.",
			[]llmtest.Response{e(401, "authentication_error")}},
		{"no permission", "permission_error", "Claude refused this request: the API key has no access to this model or feature. Check the key's permissions.",
			[]llmtest.Response{e(403, "permission_error")}},
		{"unknown model", "not_found_error", "Claude does not know the model Paige asked for. Check the model in Paige's configuration.",
			[]llmtest.Response{e(404, "not_found_error")}},
		{"bad request", "invalid_request_error", "Claude rejected the request Paige sent. The details are in Paige's server log.",
			[]llmtest.Response{e(400, "invalid_request_error")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.fake.Enqueue(tt.script...)
			evs, out := f.run(context.Background(), f.session(t))
			if !out.Errored || len(evs) != 2 || !last(evs).Error {
				t.Fatalf("got %+v %v", out, types(evs))
			}
			checkForPeople(t, evs[0], core.CodeAnthropicAPI, tt.apiCode, tt.want)
		})
	}
}

func TestTimeoutIsForPeople(t *testing.T) {
	fake := llmtest.NewServer(t)
	fake.Enqueue(llmtest.Hang())
	sdk := anthropic.NewClient(option.WithAPIKey("k"), option.WithBaseURL(fake.URL()), option.WithMaxRetries(0))
	c := NewClient(&sdk.Messages, &ClientOptions{Timeout: 2 * time.Second})
	_, err := c.Create(context.Background(), testParams())
	ce, ok := err.(*core.Error)
	if !ok {
		t.Fatalf("got %v", err)
	}
	checkForPeople(t, ce.SSE(), core.CodeAnthropicAPI, "timeout",
		"Claude did not answer within 2 seconds. Your session is saved: resume it to try again.")
}

// TestRunErrorsAreForPeople covers the runner's own failures: no model, an
// unusable turn (refusal, max_tokens) and the iteration limit.
func TestRunErrorsAreForPeople(t *testing.T) {
	t.Run("offline", func(t *testing.T) {
		f := newFixture(t, &Options{Offline: true})
		evs, _ := f.run(context.Background(), f.session(t))
		checkForPeople(t, evs[0], core.CodeAnthropicAPI, "no_model",
			"GhostPath needs Claude, and Paige runs without a model (PAIGE_OFFLINE). Set ANTHROPIC_API_KEY and restart Paige.")
	})
	for _, tt := range []struct{ stop, want string }{
		{"refusal", "Claude declined to continue this session. Try rephrasing the problem in a new session."},
		{"max_tokens", "Claude's answer was too long and got cut off, so Paige did not use it. Resume the session to ask again."},
	} {
		t.Run(tt.stop, func(t *testing.T) {
			f := newFixture(t, nil)
			f.fake.Enqueue(llmtest.Text("unusable").WithStop(tt.stop))
			evs, _ := f.run(context.Background(), f.session(t))
			checkForPeople(t, evs[len(evs)-2], core.CodeAnthropicAPI, tt.stop, tt.want)
		})
	}
	t.Run("loop limit", func(t *testing.T) {
		f := newFixture(t, &Options{MaxIterations: 3})
		f.fake.Handle(func(llmtest.Request) llmtest.Response {
			return llmtest.ToolUse("loop", "get_context_usage", map[string]any{})
		})
		evs, _ := f.run(context.Background(), f.session(t))
		checkForPeople(t, evs[len(evs)-2], core.CodeAgentLoopExceeded, "",
			"The agent took 3 steps without reaching a round or a question, so Paige stopped it. "+
				"Everything so far is saved: resume the session to let it try again.")
	})
}
