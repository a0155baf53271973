package extract

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/llm/llmtest"
)

func claudeClient(tb testing.TB, srv *llmtest.Server) *llm.Client {
	tb.Helper()
	return llm.New(llm.Options{APIKey: "test-key", BaseURL: srv.URL(), Retry: llm.RetryPolicy{BaseDelay: time.Millisecond}})
}

func TestClaudeExtract(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.JSON(planItems).WithUsage(300, 80))
	x := &Claude{Client: claudeClient(t, srv)}
	entries, err := x.Extract(context.Background(), planTurns, "session:test")
	if err != nil {
		t.Fatal(err)
	}
	assertPlanEntries(t, entries)

	req := srv.Requests()[0]
	if req.Model != "claude-haiku-4-5-20251001" {
		t.Errorf("model: got %q, want the Haiku default", req.Model)
	}
	if req.System != Prompt || !strings.Contains(req.LastUserText(), "[USER]: I prefer using pnpm for package management") {
		t.Errorf("prompt: system %.40q user %.80q", req.System, req.LastUserText())
	}
	format, _ := json.Marshal(req.OutputFormat)
	if !strings.Contains(string(format), `"json_schema"`) || !strings.Contains(string(format), `"correction"`) {
		t.Errorf("output format: %s", format)
	}
	if x.Name() != "claude:claude-haiku-4-5-20251001" {
		t.Errorf("name: %q", x.Name())
	}
}

func TestClaudeModelChoice(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.JSON(Extraction{Items: []Item{}}))
	x := &Claude{Client: claudeClient(t, srv), Tier: llm.Sonnet}
	if _, err := x.Extract(context.Background(), planTurns, "s"); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].Model; got != "claude-sonnet-4-5-20250929" {
		t.Errorf("model: got %q, want Sonnet", got)
	}
}

func TestClaudeErrors(t *testing.T) {
	t.Run("transient error is retried once", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.Enqueue(llmtest.Error(529, "overloaded_error", "busy"), llmtest.JSON(planItems))
		entries, err := (&Claude{Client: claudeClient(t, srv)}).Extract(context.Background(), planTurns, "session:test")
		if err != nil || len(entries) != 2 || len(srv.Requests()) != 2 {
			t.Errorf("got %d entries, %v after %d requests", len(entries), err, len(srv.Requests()))
		}
	})
	t.Run("reply that is not an items object", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.Enqueue(llmtest.Text(`["not", "items"]`))
		if _, err := (&Claude{Client: claudeClient(t, srv)}).Extract(context.Background(), planTurns, "s"); err == nil {
			t.Error("got nil error for a reply outside the schema")
		}
	})
	t.Run("no key", func(t *testing.T) {
		_, err := (&Claude{Client: llm.New(llm.Options{})}).Extract(context.Background(), planTurns, "s")
		if !errors.Is(err, llm.ErrNoModel) {
			t.Errorf("got %v, want ErrNoModel", err)
		}
	})
}
