package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// verdict is a response type with an enum, a range and a nullable field.
type verdict struct {
	Decision   string   `json:"decision" jsonschema:"what to do"`
	Confidence float64  `json:"confidence"`
	Note       *string  `json:"note"`
	Tags       []string `json:"tags"`
}

func (verdict) CustomizeSchema(s *jsonschema.Schema) error {
	return llm.Constrain(s, llm.Enum("decision", "go", "stop"), llm.Range("confidence", 0, 1))
}

// recorder is a CallLogger keeping every record.
type recorder struct {
	mu   sync.Mutex
	recs []llm.CallRecord
}

func (r *recorder) LogAPICall(_ context.Context, rec llm.CallRecord) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec)
	return nil
}

func (r *recorder) all() []llm.CallRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]llm.CallRecord(nil), r.recs...)
}

func newClient(tb testing.TB, s *llmtest.Server, opts llm.Options) (*llm.Client, *recorder) {
	tb.Helper()
	rec := &recorder{}
	opts.APIKey = "sk-test"
	opts.BaseURL = s.URL()
	opts.Log = rec
	if opts.Retry.BaseDelay == 0 {
		opts.Retry.BaseDelay = time.Millisecond
	}
	return llm.New(opts), rec
}

func req(user string) llm.Request {
	return llm.Request{CallType: "test_call", SessionID: "sess-1", Tier: llm.Haiku, System: "Be a judge.", User: user}
}

func TestCallSuccess(t *testing.T) {
	s := llmtest.NewServer(t)
	c, rec := newClient(t, s, llm.Options{})
	s.Enqueue(llmtest.JSON(map[string]any{"decision": "go", "confidence": 0.9, "note": nil, "tags": []string{"a"}}).WithUsage(1000, 200))

	got, res, err := llm.Call[verdict](context.Background(), c, req("should we ship?"))
	if err != nil {
		t.Fatal(err)
	}
	want := verdict{Decision: "go", Confidence: 0.9, Tags: []string{"a"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	wantCost := (1000*1.00 + 200*5.00) / 1e6 // claude-haiku-4-5: $1 / $5
	if res.Model != "claude-haiku-4-5-20251001" || res.InputTokens != 1000 || res.OutputTokens != 200 ||
		res.CostUSD != wantCost || res.StopReason != "end_turn" || res.InputHash != llm.InputHash("should we ship?") {
		t.Errorf("result: got %+v", res)
	}

	r := s.Requests()[0]
	if r.Model != "claude-haiku-4-5-20251001" || r.MaxTokens != 4096 || r.System != "Be a judge." || r.LastUserText() != "should we ship?" {
		t.Errorf("request: got model=%q max_tokens=%d system=%q user=%q", r.Model, r.MaxTokens, r.System, r.LastUserText())
	}
	if len(r.Tools) != 0 {
		t.Errorf("tools: got %v, want none", r.Tools)
	}
	if r.OutputFormat["type"] != "json_schema" {
		t.Errorf("output_config.format.type: got %v", r.OutputFormat["type"])
	}
	schema := r.Schema()
	props, _ := schema["properties"].(map[string]any)
	decision, _ := props["decision"].(map[string]any)
	if diff := cmp.Diff([]any{"go", "stop"}, decision["enum"]); diff != "" {
		t.Errorf("decision enum (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{"decision", "confidence", "note", "tags"}, schema["required"]); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	if schema["additionalProperties"] != false {
		t.Errorf("additionalProperties: got %v, want false", schema["additionalProperties"])
	}

	recs := rec.all()
	if len(recs) != 1 {
		t.Fatalf("records: got %d, want 1", len(recs))
	}
	got1 := recs[0]
	if got1.CallType != "test_call" || got1.SessionID != "sess-1" || got1.Model != "claude-haiku-4-5-20251001" ||
		got1.LatencyMs <= 0 || got1.InputTokens != 1000 || got1.OutputTokens != 200 || got1.CostUSD != wantCost ||
		got1.Err != nil || got1.InputHash != llm.InputHash("should we ship?") || got1.At.IsZero() {
		t.Errorf("record: got %+v", got1)
	}
}

func TestTierAndMaxTokens(t *testing.T) {
	tests := []struct {
		name      string
		opts      llm.Options
		req       llm.Request
		model     string
		maxTokens int
	}{
		{"haiku", llm.Options{}, llm.Request{Tier: llm.Haiku}, "claude-haiku-4-5-20251001", 4096},
		{"sonnet", llm.Options{}, llm.Request{Tier: llm.Sonnet}, "claude-sonnet-4-5-20250929", 4096},
		{"default tier is sonnet", llm.Options{}, llm.Request{}, "claude-sonnet-4-5-20250929", 4096},
		{"opus", llm.Options{}, llm.Request{Tier: llm.Opus}, config.DefaultModelOpus, 4096},
		{"override", llm.Options{Models: map[llm.Tier]string{llm.Sonnet: "claude-sonnet-4-6"}}, llm.Request{}, "claude-sonnet-4-6", 4096},
		{"explicit model", llm.Options{}, llm.Request{Tier: llm.Haiku, Model: "claude-opus-4-1"}, "claude-opus-4-1", 4096},
		{"custom max_tokens", llm.Options{}, llm.Request{MaxTokens: 8192}, "claude-sonnet-4-5-20250929", 8192},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, _ := newClient(t, s, tt.opts)
			s.Enqueue(llmtest.JSON(map[string]any{"decision": "stop", "confidence": 0, "note": "n", "tags": []string{}}))
			r := tt.req
			r.User = "u"
			if _, _, err := llm.Call[verdict](context.Background(), c, r); err != nil {
				t.Fatal(err)
			}
			sent := s.Requests()[0]
			if sent.Model != tt.model || sent.MaxTokens != tt.maxTokens {
				t.Errorf("got model %q max_tokens %d, want %q %d", sent.Model, sent.MaxTokens, tt.model, tt.maxTokens)
			}
		})
	}
}

func TestWebSearchTool(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{})
	s.Enqueue(llmtest.Message("end_turn",
		llmtest.TextBlock("Let me search."),
		llmtest.ServerToolUseBlock("srvtoolu_1", "web_search", map[string]any{"query": "react hooks"}),
		llmtest.WebSearchResultBlock("srvtoolu_1", llmtest.WebResult{URL: "https://react.dev", Title: "React"}),
		llmtest.TextBlock(`{"decision":"go",`),
		llmtest.TextBlock(`"confidence":1,"note":null,"tags":["web"]}`),
	))
	r := req("find resources")
	r.WebSearch = &llm.WebSearch{MaxUses: 5}
	got, _, err := llm.Call[verdict](context.Background(), c, r)
	if err != nil {
		t.Fatal(err)
	}
	if got.Decision != "go" || len(got.Tags) != 1 {
		t.Errorf("decoded: got %+v", got)
	}
	want := []map[string]any{{"type": "web_search_20250305", "name": "web_search", "max_uses": float64(5)}}
	if diff := cmp.Diff(want, s.Requests()[0].Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

func TestPauseTurnIsContinued(t *testing.T) {
	s := llmtest.NewServer(t)
	c, rec := newClient(t, s, llm.Options{})
	s.Enqueue(
		llmtest.Message("pause_turn", llmtest.ServerToolUseBlock("srvtoolu_1", "web_search", map[string]any{"query": "q"})).WithUsage(10, 5),
		llmtest.JSON(map[string]any{"decision": "go", "confidence": 0.5, "note": nil, "tags": []string{}}).WithUsage(20, 7),
	)
	_, res, err := llm.Call[verdict](context.Background(), c, req("x"))
	if err != nil {
		t.Fatal(err)
	}
	if res.InputTokens != 30 || res.OutputTokens != 12 {
		t.Errorf("usage summed over the turn: got %d/%d, want 30/12", res.InputTokens, res.OutputTokens)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || len(reqs[1].Messages) != 2 || reqs[1].Messages[1].Role != "assistant" {
		t.Fatalf("continuation: got %d requests, second %+v", len(reqs), reqs[len(reqs)-1].Messages)
	}
	if got := reqs[1].Messages[1].Content[0]["type"]; got != "server_tool_use" {
		t.Errorf("continued content: got %v, want the paused server_tool_use", got)
	}
	if got := len(rec.all()); got != 1 {
		t.Errorf("records: got %d, want 1 (one logical call)", got)
	}
}

// assertFailureRecord checks the EC-19 shape of a failure row.
// assertRequests fails tb unless s received want requests; why, if not
// empty, says what the count means.
func assertRequests(tb testing.TB, s *llmtest.Server, want int, why string) {
	tb.Helper()
	if got := len(s.Requests()); got != want {
		if why != "" {
			why = " (" + why + ")"
		}
		tb.Errorf("requests: got %d, want %d%s", got, want, why)
	}
}

func assertFailureRecord(tb testing.TB, rec *recorder, n int) {
	tb.Helper()
	recs := rec.all()
	if len(recs) != n {
		tb.Fatalf("records: got %d, want %d", len(recs), n)
	}
	for _, r := range recs {
		if r.Err == nil || r.LatencyMs != -1 || r.InputTokens != 0 || r.OutputTokens != 0 || r.CostUSD != 0 || r.Model == "" {
			tb.Errorf("failure record: got %+v, want latency -1, zero tokens and cost, an error", r)
		}
	}
}

func TestStopReasonErrors(t *testing.T) {
	tests := []struct {
		name  string
		resp  llmtest.Response
		check func(error) bool
	}{
		{"refusal", llmtest.Text("I won't help with that.").WithStop("refusal"), func(err error) bool {
			var e *llm.RefusalError
			return errors.As(err, &e) && e.Text == "I won't help with that."
		}},
		{"max_tokens", llmtest.Text(`{"decision":"g`).WithStop("max_tokens").WithUsage(5, 4096), func(err error) bool {
			var e *llm.MaxTokensError
			return errors.As(err, &e) && e.MaxTokens == 4096 && e.OutputTokens == 4096
		}},
		{"tool_use", llmtest.ToolUse("toolu_1", "x", nil), func(err error) bool {
			var e *llm.InvalidReplyError
			return errors.As(err, &e)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, rec := newClient(t, s, llm.Options{})
			s.Enqueue(tt.resp, tt.resp)
			_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
			if !tt.check(err) {
				t.Fatalf("error: got %v (%T)", err, err)
			}
			if llm.IsTransient(err) {
				t.Errorf("IsTransient(%v): got true, want false", err)
			}
			assertRequests(t, s, 1, "no retry")
			assertFailureRecord(t, rec, 1)
		})
	}
}

func TestInvalidReplies(t *testing.T) {
	tests := []struct {
		name  string
		reply string
	}{
		{"not json", "Sure! Here is the verdict: go"},
		{"wrong enum", `{"decision":"maybe","confidence":0.5,"note":null,"tags":[]}`},
		{"out of range", `{"decision":"go","confidence":1.5,"note":null,"tags":[]}`},
		{"missing required", `{"decision":"go","note":null,"tags":[]}`},
		{"extra field", `{"decision":"go","confidence":0.5,"note":null,"tags":[],"x":1}`},
		{"wrong type", `{"decision":"go","confidence":"high","note":null,"tags":[]}`},
		{"null array", `{"decision":"go","confidence":0.5,"note":null,"tags":null}`},
		{"empty", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			c, rec := newClient(t, s, llm.Options{})
			s.Enqueue(llmtest.Text(tt.reply))
			_, _, err := llm.Call[verdict](context.Background(), c, req("x"))
			var e *llm.InvalidReplyError
			if !errors.As(err, &e) || e.Text != tt.reply {
				t.Fatalf("error: got %v, want *InvalidReplyError carrying the reply", err)
			}
			assertFailureRecord(t, rec, 1)
		})
	}
}

func TestSchemaSentInFieldOrder(t *testing.T) {
	s := llmtest.NewServer(t)
	c, _ := newClient(t, s, llm.Options{})
	s.Enqueue(okReply)
	if _, _, err := llm.Call[verdict](context.Background(), c, req("x")); err != nil {
		t.Fatal(err)
	}
	raw := string(s.Requests()[0].Raw)
	last := -1
	for _, field := range []string{`"decision":`, `"confidence":`, `"note":`, `"tags":`} {
		i := strings.Index(raw, field)
		if i <= last {
			t.Fatalf("property %s out of Go field order in %s", field, raw)
		}
		last = i
	}
	var sent map[string]any
	if err := json.Unmarshal(s.Requests()[0].Raw, &sent); err != nil {
		t.Fatal(err)
	}
	wire, _ := llm.SchemaFor[verdict]()
	got := sent["output_config"].(map[string]any)["format"].(map[string]any)["schema"]
	if diff := cmp.Diff(roundTrip(t, wire.Wire), got); diff != "" {
		t.Errorf("sent schema differs from Wire (-want +got):\n%s", diff)
	}
}

func roundTrip(tb testing.TB, v any) any {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		tb.Fatal(err)
	}
	return out
}
