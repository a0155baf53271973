package llm_test

import (
	"context"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func TestCost(t *testing.T) {
	M := int64(1_000_000)
	tests := []struct {
		model string
		u     llm.Usage
		want  float64
		known bool
	}{
		// The spec's Haiku: $1 / $5, not Claude 3.5 Haiku's $0.80 / $4.
		{config.DefaultModelHaiku, llm.Usage{Input: M, Output: M}, 6.00, true},
		{"claude-haiku-4-5", llm.Usage{Input: 1000}, 0.001, true},
		{config.DefaultModelSonnet, llm.Usage{Input: M, Output: M}, 18.00, true},
		{config.DefaultModelSonnet, llm.Usage{Input: 1234, Output: 567}, (1234*3.00 + 567*15.00) / 1e6, true},
		{config.DefaultModelOpus, llm.Usage{Input: M}, 5.00, true},
		{"claude-opus-4-1-20250805", llm.Usage{Output: M}, 75.00, true},
		{"claude-opus-4-20250514", llm.Usage{Output: M}, 75.00, true},
		// The November 2026 lineup.
		{"claude-sonnet-5-5", llm.Usage{Input: M, Output: M}, 12.00, true},
		{"claude-opus-5-5", llm.Usage{Input: M, Output: M}, 24.00, true},
		{"claude-fable-5-1", llm.Usage{Input: M, Output: M}, 60.00, true},
		{"claude-fable-5-2", llm.Usage{Input: M, Output: M}, 48.00, true},
		{"claude-opus-5-5-latest", llm.Usage{Input: M}, 4.00, true},
		// Cache reads and writes at their own rates.
		{"claude-opus-5-5", llm.Usage{CacheRead: M, CacheWrite: M}, 0.20 + 5.00, true},
		{"claude-haiku-4-5", llm.Usage{CacheRead: M, CacheWrite: M}, 0.10 + 1.25, true},
		// Haiku 5.5's price depends on the prompt size.
		{"claude-haiku-5-5", llm.Usage{Input: 100_000, Output: M}, 0.01 + 0.50, true},
		{"claude-haiku-5-5", llm.Usage{Input: 100_001, Output: M}, 100_001*0.50/1e6 + 2.50, true},
		// Unknown is unknown: a newer version never takes an older price.
		{"claude-opus-5-7", llm.Usage{Input: M}, 0, false},
		{"claude-sonnet-4-5-preview", llm.Usage{Input: M}, 0, false},
		{"gpt-unknown", llm.Usage{Input: 1000, Output: 1000}, 0, false},
		{"", llm.Usage{Input: 1000}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			got, known := llm.Cost(tt.model, tt.u)
			if math.Abs(got-tt.want) > 1e-9 || known != tt.known {
				t.Errorf("Cost(%q, %+v): got %v %v, want %v %v", tt.model, tt.u, got, known, tt.want, tt.known)
			}
		})
	}
}

// A call to a model without a known price is recorded with an unknown
// cost (and a warning), never as $0; a priced call carries its cost.
func TestUnknownModelCostIsUnknown(t *testing.T) {
	s := llmtest.NewServer(t)
	var logs strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))
	rec := &recorder{}
	c := llm.New(llm.Options{APIKey: "k", BaseURL: s.URL(), Log: rec, Logger: logger})
	s.Enqueue(okReply.WithUsage(1000, 1000), okReply.WithUsage(1000, 1000))
	r := req("x")
	r.Model = "my-finetune-1"
	_, res, err := llm.Call[verdict](context.Background(), c, r)
	if err != nil {
		t.Fatal(err)
	}
	if res.CostKnown || !rec.all()[0].CostUnknown || rec.all()[0].Model != "my-finetune-1" {
		t.Errorf("cost: got %+v / %+v, want unknown", res, rec.all()[0])
	}
	mu.Lock()
	if !strings.Contains(logs.String(), "no known price") || !strings.Contains(logs.String(), "my-finetune-1") {
		t.Errorf("no warning logged: %s", logs.String())
	}
	mu.Unlock()
	r.Model = "claude-haiku-4-5-20251001"
	if _, res, err = llm.Call[verdict](context.Background(), c, r); err != nil {
		t.Fatal(err)
	}
	if got := rec.all()[1]; got.CostUnknown || math.Abs(got.CostUSD-0.006) > 1e-12 || !res.CostKnown {
		t.Errorf("priced call: got %+v, want $0.006 known", got)
	}
}
