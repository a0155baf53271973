package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// autoSession is a session with two candidate turns (a rule, and a fact
// about the project carrying a password), task requests, a question and an
// @remember, which is exact without a model.
var autoSession = []string{
	"Add a function called multiply_numbers that multiplies two numbers together. Add a test for it.",
	"now run the tests",
	"we always use table-driven tests in this repo",
	"The staging database is on port 5433 and the password is hunter2-Secret-99",
	"@remember deploys go through fly.io",
	"Read the README.md file and tell me what it says. Then stop.",
	"What does --frozen do?",
}

func writePromptSession(tb testing.TB, prompts []string) string {
	tb.Helper()
	var b strings.Builder
	for i, p := range prompts {
		u, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": p}, "uuid": fmt.Sprint("u", i)})
		a, _ := json.Marshal(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprint("m", i), "role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": fmt.Sprint("Done with step ", i, ".")}}}})
		b.Write(u)
		b.WriteByte('\n')
		b.Write(a)
		b.WriteByte('\n')
	}
	path := filepath.Join(tb.TempDir(), "auto.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestAutoCallsModelOnlyForCandidates: PAIGE_EXTRACTOR=auto with a key
// sends the model the candidate turns only (one request for the chunk,
// holding the rule and the fact, not the task requests), redacted; the
// call is recorded (api_call_log's CallLogger) with its cost; one item out
// of range and one of an unknown type are dropped with a warning while the
// valid one is kept, next to the heuristics' entries; the request's schema
// states the enum and the range as constraints.
func TestAutoCallsModelOnlyForCandidates(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.JSON(extract.Extraction{Items: []extract.Item{
		{Type: "fact", Content: "The staging database listens on port 5433", Confidence: 0.9, Evidence: "user", Entities: []string{"staging"}}}}).WithUsage(1200, 90))
	srv.Enqueue(llmtest.Text(`{"items":[
		{"type":"rule","content":"Migrations are reversible","confidence":0.9,"evidence":"user","entities":[]},
		{"type":"rule","content":"Tests are table-driven","confidence":1.7,"evidence":"user","entities":[]},
		{"type":"opinion","content":"The user likes tests","confidence":0.5,"evidence":"user","entities":[]}]}`).WithUsage(800, 60))
	var mu sync.Mutex
	var calls []llm.CallRecord
	client := llm.New(llm.Options{APIKey: "test-key", BaseURL: srv.URL(), Retry: llm.RetryPolicy{BaseDelay: time.Millisecond},
		Log: llm.CallLoggerFunc(func(_ context.Context, rec llm.CallRecord) error {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, rec)
			return nil
		})})
	var logs testenv.SyncBuffer
	x, err := extract.Select("auto", "haiku", client, "", nil, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	s := newStore(t)
	res, err := Run(context.Background(), writePromptSession(t, autoSession), Options{Store: s, Extractor: x, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}

	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1 (one chunk of candidates)", len(reqs))
	}
	sent := reqs[0].LastUserText()
	for _, want := range []string{"we always use table-driven tests", "The staging database is on port 5433"} {
		if !strings.Contains(sent, want) {
			t.Errorf("request lacks the candidate %q:\n%s", want, sent)
		}
	}
	for _, not := range []string{"multiply_numbers", "now run the tests", "README", "--frozen", "fly.io", "hunter2-Secret-99"} {
		if strings.Contains(sent, not) {
			t.Errorf("request holds %q, which is no candidate (or a secret):\n%s", not, sent)
		}
	}
	mu.Lock()
	if len(calls) != 1 || calls[0].CallType != "learn_extract" || calls[0].InputTokens != 1200 || calls[0].CostUSD <= 0 {
		t.Errorf("recorded calls: %+v, want one learn_extract call with its tokens and cost", calls)
	}
	mu.Unlock()

	var contents []string
	for _, e := range res.Entries {
		contents = append(contents, string(e.Type)+": "+e.Content)
		if strings.Contains(e.Content+e.Evidence, "hunter2-Secret-99") {
			t.Errorf("entry stores the secret: %+v", e)
		}
	}
	got := strings.Join(contents, "\n")
	for _, want := range []string{"fact: The staging database listens on port 5433", "rule: We always use table-driven tests in this repo", "fact: Deploys go through fly.io"} {
		if !strings.Contains(got, want) {
			t.Errorf("entries lack %q:\n%s", want, got)
		}
	}
	md, _ := os.ReadFile(filepath.Join(s.Dir(), "knowledge.md"))
	if strings.Contains(string(md), "hunter2-Secret-99") {
		t.Error("knowledge.md renders the secret")
	}

	// A second session: one item of the answer is out of range, one of an
	// unknown type; they are dropped with a warning, the valid one is kept.
	res, err = Run(context.Background(), writePromptSession(t, []string{"our migrations must be reversible"}), Options{Store: s, Extractor: x, Now: fixedNow})
	if err != nil {
		t.Fatalf("one invalid item failed the transcript: %v", err)
	}
	contents = contents[:0]
	for _, e := range res.Entries {
		contents = append(contents, string(e.Type)+": "+e.Content)
	}
	got = strings.Join(contents, "\n")
	if !strings.Contains(got, "rule: Migrations are reversible") || strings.Contains(got, "table-driven") || strings.Contains(got, "likes tests") {
		t.Errorf("entries after an answer with invalid items:\n%s", got)
	}
	if n := strings.Count(logs.String(), "model item dropped"); n != 2 {
		t.Errorf("%d drop warnings, want 2 (the range and the type):\n%s", n, logs.String())
	}
}

// TestExtractionSchemaConstraints: the answer's schema states the type
// enum and the confidence range as constraints. Claude's request carries
// the enum; the Messages API refuses "minimum"/"maximum" (400), so the llm
// package moves the range into the description on the wire and validates it
// on the reply; Ollama's request carries both.
func TestExtractionSchemaConstraints(t *testing.T) {
	sch, err := llm.SchemaFor[extract.Extraction]()
	if err != nil {
		t.Fatal(err)
	}
	conf, err := llm.Field(sch.Full, "items[].confidence")
	if err != nil || conf.Minimum == nil || *conf.Minimum != 0 || conf.Maximum == nil || *conf.Maximum != 1 {
		t.Errorf("confidence schema %+v, %v: want minimum 0 and maximum 1", conf, err)
	}
	typ, err := llm.Field(sch.Full, "items[].type")
	if err != nil || len(typ.Enum) != 6 {
		t.Errorf("type schema %+v, %v: want the six types as an enum", typ, err)
	}
	wire, _ := json.Marshal(sch.Wire)
	if !strings.Contains(string(wire), `"enum":["preference","fact","rule","procedure","correction","decision"]`) || !strings.Contains(string(wire), "maximum: 1, minimum: 0") {
		t.Errorf("Claude's wire schema: %s", wire)
	}
	ollama, _ := json.Marshal(extract.ExtractionSchema)
	for _, c := range []string{`"minimum":0`, `"maximum":1`, `"enum":["preference","fact","rule","procedure","correction","decision"]`} {
		if !strings.Contains(string(ollama), c) {
			t.Errorf("Ollama's schema lacks %s: %s", c, ollama)
		}
	}
}

// TestAutoWithoutModel: with no key and no model named, auto is the
// heuristics, silently: no request, nothing recorded, the same entries.
func TestAutoWithoutModel(t *testing.T) {
	srv := llmtest.NewServer(t)
	client := llm.New(llm.Options{BaseURL: srv.URL()}) // no key
	x, err := extract.Select("auto", "", client, "", nil, nil)
	if err != nil || x.Name() != "heuristic" {
		t.Fatalf("Select(auto, no model) = %v, %v; want the heuristics", x, err)
	}
	s := newStore(t)
	res, err := Run(context.Background(), writePromptSession(t, autoSession), Options{Store: s, Extractor: x, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.Requests()) != 0 || len(res.Entries) != 2 {
		t.Errorf("%d requests, entries %+v; want none and the rule and the remembered fact", len(srv.Requests()), res.Entries)
	}
	if _, err := extract.Select("model", "", client, "", nil, nil); !errors.Is(err, llm.ErrNoModel) {
		t.Errorf("Select(model, no model): %v, want ErrNoModel", err)
	}
	if _, err := extract.Select("auto", "haiku", client, "", nil, nil); !errors.Is(err, llm.ErrNoModel) {
		t.Errorf("Select(auto, haiku without a key): %v, want ErrNoModel", err)
	}
	if x, err := extract.Select("heuristic", "haiku", client, "", nil, nil); err != nil || x.Name() != "heuristic" {
		t.Errorf("Select(heuristic, haiku) = %v, %v; want the heuristics", x, err)
	}
}

// TestHeuristicsSeeRedactedText: a <private> block spanning sentences is
// redacted before classification, so none of its sentences becomes an
// entry (classified sentence by sentence, they would not know they were
// private), and a refusal's reason with a key is stored redacted.
func TestHeuristicsSeeRedactedText(t *testing.T) {
	const key = "sk-ant-api03-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
	path := writePromptSession(t, []string{
		"Never push to main. <private>Our deploy key must be rotated weekly. We always keep it in vault.</private>",
		"from now on export ANTHROPIC_API_KEY=" + key + " before running the evals",
	})
	s := newStore(t)
	res, err := Run(context.Background(), path, Options{Store: s, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.Entries {
		got = append(got, e.Content+" | "+e.Evidence)
	}
	all := strings.Join(got, "\n")
	if !strings.Contains(all, "Never push to main") || strings.Contains(all, "deploy key") || strings.Contains(all, "vault") || strings.Contains(all, key) {
		t.Errorf("entries:\n%s\nwant the public rule only, nothing private, no key", all)
	}
	if !strings.Contains(all, "[REDACTED:") {
		t.Errorf("the lasting rule with a key should be kept, redacted:\n%s", all)
	}
}
