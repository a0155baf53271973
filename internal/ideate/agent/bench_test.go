package agent

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/paige-dev/paige/internal/ideate/core"
	"github.com/paige-dev/paige/internal/ideate/store"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

// timedMessages measures the time spent in the model call (SDK + HTTP + fake).
type timedMessages struct {
	inner Messages
	spent time.Duration
	calls int
}

func (m *timedMessages) New(ctx context.Context, p anthropic.MessageNewParams, opts ...option.RequestOption) (*anthropic.Message, error) {
	start := time.Now()
	msg, err := m.inner.New(ctx, p, opts...)
	m.spent += time.Since(start)
	m.calls++
	return msg, err
}

// BenchmarkRunnerOverhead reports the runner's own time per iteration,
// excluding the model call: processing the reply, dispatching a tool that
// reads the store, recording the tool call, persisting state and history.
// Each op is a 50-iteration run (the loop limit) against llmtest.
func BenchmarkRunnerOverhead(b *testing.B) {
	fake := llmtest.NewServer(b)
	fake.Handle(func(llmtest.Request) llmtest.Response {
		return llmtest.Message("tool_use", llmtest.TextBlock("Checking the context."),
			llmtest.ToolUseBlock("toolu_bench", "get_context_usage", map[string]any{})).WithUsage(1000, 100)
	})
	repo, err := store.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	sdk := anthropic.NewClient(option.WithAPIKey("k"), option.WithBaseURL(fake.URL()), option.WithMaxRetries(0))
	timed := &timedMessages{inner: &sdk.Messages}
	runner := NewRunner(NewClient(timed, nil), repo, &Options{SpecDir: b.TempDir()})
	var total time.Duration
	iterations := 0
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		msgs, _, _ := AppendUserText(nil, core.InitialMessage("How might we reduce churn?"))
		s := core.Session{ID: store.NewID(), Problem: "p", Status: core.StatusCreated, Messages: msgs}
		if err := repo.CreateSession(context.Background(), s); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		out := runner.Run(context.Background(), &s, func(core.Event) {})
		total += time.Since(start)
		iterations += out.Iterations
	}
	b.ReportMetric(float64((total-timed.spent).Nanoseconds())/float64(iterations), "overhead-ns/iter")
	b.ReportMetric(float64(timed.spent.Nanoseconds())/float64(timed.calls), "model-ns/call")
}
