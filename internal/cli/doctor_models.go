package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm"
)

// configuredModel is one model id Paige is configured to call and the
// variable that sets it.
type configuredModel struct{ variable, id string }

// configuredModels lists the tier models and GhostPath's AGENT_MODEL (when
// it is not the Opus tier's), each once.
func configuredModels(cfg config.Config) []configuredModel {
	list := []configuredModel{{"PAIGE_MODEL_HAIKU", cfg.ModelHaiku}, {"PAIGE_MODEL_SONNET", cfg.ModelSonnet},
		{"PAIGE_MODEL_OPUS", cfg.ModelOpus}, {"AGENT_MODEL", cfg.Ideate.AgentModel}}
	seen := map[string]bool{}
	out := list[:0]
	for _, m := range list {
		if m.id != "" && !seen[m.id] {
			seen[m.id] = true
			out = append(out, m)
		}
	}
	return out
}

// checkModels is one doctor line per configured model: whether the Models
// API (with the configured key and ANTHROPIC_BASE_URL) serves it, and what
// Paige's status table says of it. Legacy models pass with a note;
// deprecated, retired, missing and unknown models are advice. Without a
// key, or when the API cannot be reached, only the table is consulted.
func checkModels(ctx context.Context, cfg config.Config) []check {
	var client *llm.Client
	if !cfg.Offline && cfg.AnthropicAPIKey != "" {
		client = llm.New(llm.Options{APIKey: cfg.AnthropicAPIKey, BaseURL: cfg.AnthropicURL,
			Retry: llm.RetryPolicy{MaxAttempts: 1}})
	}
	var out []check
	for _, m := range configuredModels(cfg) {
		out = append(out, checkModel(ctx, client, m))
	}
	return out
}

func checkModel(ctx context.Context, client *llm.Client, m configuredModel) check {
	c := check{name: "model " + m.id, ok: true}
	served := "not checked (no ANTHROPIC_API_KEY)"
	if client != nil {
		ok, err := client.ModelAvailable(ctx, m.id)
		switch {
		case err != nil:
			served = "not checked: the Models API " + modelsAPIProblem(err)
		case !ok:
			c.ok, served = false, "not served for this key (Models API: not found)"
			c.fix = fmt.Sprintf("set %s to a current model (see docs/models.md)", m.variable)
		default:
			served = "served"
		}
	}
	st, known := llm.Status(m.id)
	switch {
	case !known:
		c.detail = fmt.Sprintf("%s; %s: not in Paige's model table, cost recorded as unknown", served, m.variable)
	case st.Lifecycle == llm.Active:
		c.detail = fmt.Sprintf("%s; %s, active", served, m.variable)
	case st.Lifecycle == llm.Legacy:
		c.detail = fmt.Sprintf("%s; %s, legacy: consider %s (docs/models.md)", served, m.variable, st.Successor)
	default:
		c.ok = false
		c.detail = fmt.Sprintf("%s; %s, %s (retirement %s)", served, m.variable, st.Lifecycle, st.Retires)
		c.fix = fmt.Sprintf("set %s=%s (docs/models.md says what changes)", m.variable, st.Successor)
	}
	return c
}

// modelsAPIProblem names why the Models API gave no answer, by error type.
func modelsAPIProblem(err error) string {
	var (
		auth *llm.AuthError
		conn *llm.ConnectionError
	)
	switch {
	case errors.As(err, &auth):
		return "rejected the key"
	case errors.As(err, &conn):
		return "is unreachable"
	case errors.Is(err, context.DeadlineExceeded):
		return "did not answer in time"
	}
	return "failed (" + string(llm.Classify(err)) + ")"
}
