package llm

import (
	"context"
	"errors"

	"github.com/anthropics/anthropic-sdk-go"
)

// Lifecycle is where a model is in Anthropic's model lifecycle (the
// official model deprecations page): active models are recommended; legacy
// ones are still served but no longer updated; deprecated ones have a
// retirement date; retired ones answer errors.
type Lifecycle string

// The lifecycle states.
const (
	Active     Lifecycle = "active"
	Legacy     Lifecycle = "legacy"
	Deprecated Lifecycle = "deprecated"
	Retired    Lifecycle = "retired"
)

// ModelStatus is what Paige knows about a model id: its lifecycle state,
// the date it retires or retired (YYYY-MM-DD, empty when none was
// announced) and the model to move to.
type ModelStatus struct {
	Lifecycle Lifecycle
	Retires   string
	Successor string
}

// StatusCheckedOn is the date the status table was checked against
// Anthropic's official model pages.
const StatusCheckedOn = PricesCheckedOn

// statuses maps model ids (without a date suffix) to their status.
var statuses = map[string]ModelStatus{
	"claude-fable-5-2":  {Lifecycle: Active},
	"claude-fable-5-1":  {Lifecycle: Active},
	"claude-opus-5-5":   {Lifecycle: Active},
	"claude-sonnet-5-5": {Lifecycle: Active},
	"claude-haiku-5-5":  {Lifecycle: Active},
	"claude-fable-5":    {Lifecycle: Legacy, Successor: "claude-fable-5-1"},
	"claude-opus-5":     {Lifecycle: Legacy, Successor: "claude-opus-5-5"},
	"claude-sonnet-5":   {Lifecycle: Legacy, Successor: "claude-sonnet-5-5"},
	"claude-opus-4-8":   {Lifecycle: Legacy, Successor: "claude-opus-5-5"},
	"claude-opus-4-7":   {Lifecycle: Legacy, Successor: "claude-opus-5-5"},
	"claude-opus-4-6":   {Lifecycle: Legacy, Successor: "claude-opus-5-5"},
	"claude-opus-4-5":   {Lifecycle: Legacy, Successor: "claude-opus-5-5"},
	"claude-sonnet-4-6": {Lifecycle: Legacy, Successor: "claude-sonnet-5-5"},
	"claude-sonnet-4-5": {Lifecycle: Legacy, Successor: "claude-sonnet-5-5"},
	"claude-haiku-4-5":  {Lifecycle: Legacy, Successor: "claude-haiku-5-5"},
	"claude-opus-4-1":   {Lifecycle: Retired, Retires: "2026-08-05", Successor: "claude-opus-5-5"},
	"claude-opus-4-0":   {Lifecycle: Retired, Retires: "2026-06-15", Successor: "claude-opus-5-5"},
	"claude-opus-4":     {Lifecycle: Retired, Retires: "2026-06-15", Successor: "claude-opus-5-5"},
	"claude-sonnet-4-0": {Lifecycle: Retired, Retires: "2026-06-15", Successor: "claude-sonnet-5-5"},
	"claude-sonnet-4":   {Lifecycle: Retired, Retires: "2026-06-15", Successor: "claude-sonnet-5-5"},
	"claude-3-7-sonnet": {Lifecycle: Retired, Retires: "2026-02-19", Successor: "claude-sonnet-5-5"},
}

// Status returns the status of model (matched like [Price]: exact, or with
// a date or -latest suffix) and whether Paige knows it.
func Status(model string) (ModelStatus, bool) {
	s, ok := statuses[baseModel(model)]
	return s, ok
}

// ModelAvailable asks the Models API (GET /v1/models/{id}, with the
// client's key and base URL) whether model exists for this key. A 404
// answers false with no error; other failures are the typed errors of
// [WrapError] (e.g. *AuthError, *ConnectionError), and [ErrNoModel]
// without a key. It retries like any call and is not recorded.
func (c *Client) ModelAvailable(ctx context.Context, model string) (bool, error) {
	if !c.Available() {
		return false, ErrNoModel
	}
	err := c.Retry(ctx, "models", func(ctx context.Context) error {
		_, err := c.sdk.Models.Get(ctx, model, anthropic.ModelGetParams{})
		return WrapError(err)
	})
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.StatusCode == 404 {
		return false, nil
	}
	return err == nil, err
}
