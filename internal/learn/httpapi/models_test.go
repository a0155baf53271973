package httpapi

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn/chat"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

const secretMarker = "SECRET-MARKER-acct_8f3e"

// assistantCount returns how many assistant messages session id holds.
func assistantCount(tb testing.TB, e *env, id string) int {
	tb.Helper()
	var msgs struct{ Messages []chat.Message }
	call(tb, "GET", e.url+"/api/chat/sessions/"+id+"/messages", "", &msgs)
	n := 0
	for _, m := range msgs.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

// modelFault is a model's answer and the HTTP status and error kind the
// API must turn it into.
type modelFault struct {
	name   string
	resp   llmtest.Response
	status int
	kind   llm.Kind
}

// Every model fault answers a clean error, whole or streamed, and stores
// no assistant reply.
func TestChatModelFaults(t *testing.T) {
	tests := []modelFault{
		{"hang", llmtest.Hang(), 504, llm.KindTimeout},
		{"refusal", llmtest.Text(secretMarker).WithStop("refusal"), 502, llm.KindRefused},
		{"max_tokens", llmtest.Text("half an ans " + secretMarker).WithStop("max_tokens"), 502, llm.KindTruncated},
		{"empty", llmtest.Text(""), 502, llm.KindInvalid},
		{"400", llmtest.Error(400, "invalid_request_error", secretMarker), 502, llm.KindRejected},
		{"429", llmtest.Error(429, "rate_limit_error", secretMarker), 502, llm.KindRateLimited},
		{"529", llmtest.Error(529, "overloaded_error", secretMarker), 502, llm.KindOverloaded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Only the hanging model needs a short deadline; the others get
			// one a loaded machine cannot miss.
			deadline := 30 * time.Second
			if tt.kind == llm.KindTimeout {
				deadline = 100 * time.Millisecond
			}
			e := startWith(t, nil, false, map[string]time.Duration{llm.CallTypeChat: deadline})
			var ss chat.Session
			call(t, "POST", e.url+"/api/chat/sessions", `{}`, &ss)
			e.llm.Handle(func(llmtest.Request) llmtest.Response { return tt.resp })

			var got struct{ Error, Kind string }
			code := call(t, "POST", e.url+"/api/chat/sessions/"+ss.ID+"/messages", `{"content":"hi"}`, &got)
			if code != tt.status || got.Kind != string(tt.kind) || got.Error != tt.kind.Message() {
				t.Errorf("send: got %d %+v, want %d %s", code, got, tt.status, tt.kind)
			}

			resp, err := http.Post(e.url+"/api/chat/sessions/"+ss.ID+"/stream", "application/json", strings.NewReader(`{"content":"again"}`))
			if err != nil {
				t.Fatal(err)
			}
			events := readSSE(t, resp.Body)
			resp.Body.Close()
			last := events[len(events)-1]
			if last.name != "error" || !strings.Contains(last.data, `"kind":"`+string(tt.kind)+`"`) {
				t.Errorf("stream: got %+v", events)
			}
			for _, ev := range events {
				if strings.Contains(ev.data, secretMarker) && ev.name != "delta" {
					t.Errorf("upstream text in %s event: %s", ev.name, ev.data)
				}
			}
			if n := assistantCount(t, e, ss.ID); n != 0 {
				t.Errorf("%d assistant replies stored, want none", n)
			}
		})
	}
}

// A client that closes the stream cancels the model call; nothing is
// stored as the reply.
func TestChatStreamDisconnectCancels(t *testing.T) {
	e := start(t, nil, false)
	var ss chat.Session
	call(t, "POST", e.url+"/api/chat/sessions", `{}`, &ss)
	e.llm.Enqueue(llmtest.Hang())
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", e.url+"/api/chat/sessions/"+ss.ID+"/stream", strings.NewReader(`{"content":"hi"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	e.llm.WaitRequests(t, 1, 10*time.Second)
	cancel()
	resp.Body.Close()
	e.llm.WaitCancelled(t, 1, 10*time.Second)
	if n := assistantCount(t, e, ss.ID); n != 0 {
		t.Errorf("%d assistant replies stored, want none", n)
	}
}

// A hanging extraction model ends at the per-chunk deadline with a clear
// JSON error; provider error bodies are not echoed.
func TestExtractModelFaults(t *testing.T) {
	tests := []modelFault{
		{"hang", llmtest.Hang(), 504, llm.KindTimeout},
		{"401", llmtest.Error(401, "authentication_error", secretMarker), 502, llm.KindAuth},
		{"refusal", llmtest.Text(secretMarker).WithStop("refusal"), 502, llm.KindRefused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := llmtest.NewServer(t)
			fake.Handle(func(llmtest.Request) llmtest.Response { return tt.resp })
			deadline := 30 * time.Second // only the hanging model needs a short one
			if tt.kind == llm.KindTimeout {
				deadline = 100 * time.Millisecond
			}
			client := llm.New(llm.Options{APIKey: "k", BaseURL: fake.URL(), Retry: llm.RetryPolicy{BaseDelay: time.Millisecond},
				Deadlines: map[string]time.Duration{llm.CallTypeExtract: deadline}})
			e := start(t, &extract.Claude{Client: client}, false)
			var got struct{ Error, Kind string }
			code := call(t, "POST", e.url+"/api/extract", jsonBody(map[string]string{"transcriptPath": filepath.Join(e.root, "sample.jsonl")}), &got)
			if code != tt.status || got.Kind != string(tt.kind) || strings.Contains(got.Error, secretMarker) {
				t.Errorf("got %d %+v, want %d %s", code, got, tt.status, tt.kind)
			}
			if es, _ := e.store.Entries(); len(es) != 0 {
				t.Errorf("stored %d entries", len(es))
			}
		})
	}
}
