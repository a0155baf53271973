package cli

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/learn/extract"
	"github.com/paige-dev/paige/internal/llm"
)

// learnModelSpec is the learn model: spec (--model), else
// PAIGE_LEARN_MODEL, else haiku when a Claude key is configured, else ""
// (no model).
func learnModelSpec(cfg config.Config, spec string) string {
	if spec = strings.TrimSpace(spec); spec == "" {
		spec = cfg.Learn.LearnModel
	}
	if spec == "" && cfg.HasModel() {
		spec = "haiku"
	}
	return spec
}

// learnExtractorFor returns learn's extractor: PAIGE_EXTRACTOR's mode
// (auto by default) with the model of [learnModelSpec]. Claude calls are
// recorded through calls (api_call_log); nil records nothing.
func learnExtractorFor(cfg config.Config, spec string, calls llm.CallLogger, log *slog.Logger) (extract.Extractor, error) {
	return extract.Select(cfg.Extractor, learnModelSpec(cfg, spec), llm.FromConfig(cfg, calls, log), cfg.OllamaURL, http.DefaultClient, log)
}

// learnCallLog opens the coaching database of cfg.DataDir so a learn run
// outside `paige serve` (paige learn extract, the SessionEnd worker)
// records its Claude calls in api_call_log like every other call. It opens
// nothing, and returns a nil logger, when no Claude model would be called
// (PAIGE_EXTRACTOR=heuristic, or no model configured). A database that
// cannot be opened is logged and the run goes on unrecorded. close releases
// it.
func learnCallLog(ctx context.Context, cfg config.Config, spec string, log *slog.Logger) (calls llm.CallLogger, close func()) {
	spec = learnModelSpec(cfg, spec)
	name, _, _ := strings.Cut(strings.ToLower(spec), ":")
	if cfg.Extractor == config.ExtractorHeuristic || spec == "" || name == "heuristic" || name == "ollama" {
		return nil, func() {}
	}
	st, err := store.Open(ctx, cfg.DataDir)
	if err != nil {
		if log != nil {
			log.Warn("learn: api_call_log unavailable, model calls go unrecorded", "err", err)
		}
		return nil, func() {}
	}
	return llm.CallLoggerFunc(func(ctx context.Context, rec llm.CallRecord) error {
			return st.InsertAPICall(ctx, coach.APICall{SessionID: rec.SessionID, CallType: rec.CallType, Model: rec.Model,
				InputHash: rec.InputHash, LatencyMs: rec.LatencyMs, InputTokens: rec.InputTokens, OutputTokens: rec.OutputTokens,
				CostEstimate: rec.CostUSD, CreatedAt: rec.At})
		}), func() {
			_ = st.Close()
		}
}
