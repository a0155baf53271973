package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Pricing is a model's price in US dollars per million tokens: base input,
// output, prompt-cache writes (5-minute and 1-hour) and cache reads (hits
// and refreshes). A model whose price changes with the prompt size has
// LongContext: the rates used when a request's input (cache included)
// exceeds LongContextAbove tokens.
type Pricing struct {
	Input, Output              float64
	CacheWrite5m, CacheWrite1h float64
	CacheRead                  float64
	LongContextAbove           int64
	LongContext                *Pricing
}

// PricesCheckedOn is the date the price table was checked against
// Anthropic's official pricing and model pages.
const PricesCheckedOn = "2026-11-25"

// prices maps model ids (without a date suffix) to their official list
// prices (D32: hardcoded, one place to update; docs/models.md lists them).
// The spec's FR-095 figures for Haiku ($0.80 / $4) were Claude 3.5 Haiku's;
// claude-haiku-4-5 costs $1 / $5. A model not in the table has no known
// price: its cost is unknown, never 0.
var prices = map[string]Pricing{
	// The lineup of November 2026.
	"claude-fable-5-2":  {Input: 8, Output: 40, CacheWrite5m: 10, CacheWrite1h: 16, CacheRead: 0.20},
	"claude-fable-5-1":  {Input: 10, Output: 50, CacheWrite5m: 12.50, CacheWrite1h: 20, CacheRead: 0.25},
	"claude-mythos-5-1": {Input: 10, Output: 50, CacheWrite5m: 12.50, CacheWrite1h: 20, CacheRead: 0.25},
	"claude-opus-5-5":   {Input: 4, Output: 20, CacheWrite5m: 5, CacheWrite1h: 8, CacheRead: 0.20},
	"claude-sonnet-5-5": {Input: 2, Output: 10, CacheWrite5m: 2.50, CacheWrite1h: 4, CacheRead: 0.10},
	"claude-haiku-5-5": {Input: 0.10, Output: 0.50, CacheWrite5m: 0.125, CacheWrite1h: 0.20, CacheRead: 0.01,
		LongContextAbove: 100_000, LongContext: &Pricing{Input: 0.50, Output: 2.50, CacheWrite5m: 0.625, CacheWrite1h: 1, CacheRead: 0.05}},
	// Legacy, still served.
	"claude-fable-5":    {Input: 10, Output: 50, CacheWrite5m: 12.50, CacheWrite1h: 20, CacheRead: 1},
	"claude-mythos-5":   {Input: 10, Output: 50, CacheWrite5m: 12.50, CacheWrite1h: 20, CacheRead: 1},
	"claude-opus-5":     {Input: 5, Output: 25, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50},
	"claude-sonnet-5":   {Input: 2, Output: 10, CacheWrite5m: 2.50, CacheWrite1h: 4, CacheRead: 0.20},
	"claude-opus-4-8":   {Input: 5, Output: 25, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50},
	"claude-opus-4-7":   {Input: 5, Output: 25, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50},
	"claude-opus-4-6":   {Input: 5, Output: 25, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50},
	"claude-opus-4-5":   {Input: 5, Output: 25, CacheWrite5m: 6.25, CacheWrite1h: 10, CacheRead: 0.50},
	"claude-sonnet-4-6": {Input: 3, Output: 15, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30},
	"claude-sonnet-4-5": {Input: 3, Output: 15, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30},
	"claude-haiku-4-5":  {Input: 1, Output: 5, CacheWrite5m: 1.25, CacheWrite1h: 2, CacheRead: 0.10},
	// Retired on the Claude API; kept so old api_call_log rows and
	// partner platforms still price.
	"claude-opus-4-1":   {Input: 15, Output: 75, CacheWrite5m: 18.75, CacheWrite1h: 30, CacheRead: 1.50},
	"claude-opus-4-0":   {Input: 15, Output: 75, CacheWrite5m: 18.75, CacheWrite1h: 30, CacheRead: 1.50},
	"claude-opus-4":     {Input: 15, Output: 75, CacheWrite5m: 18.75, CacheWrite1h: 30, CacheRead: 1.50},
	"claude-sonnet-4-0": {Input: 3, Output: 15, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30},
	"claude-sonnet-4":   {Input: 3, Output: 15, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30},
	"claude-3-7-sonnet": {Input: 3, Output: 15, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.30},
	"claude-3-5-haiku":  {Input: 0.80, Output: 4, CacheWrite5m: 1, CacheWrite1h: 1.6, CacheRead: 0.08},
	"claude-3-haiku":    {Input: 0.25, Output: 1.25, CacheWrite5m: 0.30, CacheWrite1h: 0.50, CacheRead: 0.03},
}

// Price returns the pricing of model and whether it is known. A model
// matches a table id exactly, or as that id with a date suffix
// ("claude-haiku-4-5-20251001"), or with "-latest"; a newer version of a
// family ("claude-opus-5-7") matches nothing, so it is never priced as an
// older one.
func Price(model string) (Pricing, bool) {
	p, ok := prices[baseModel(model)]
	return p, ok
}

// baseModel strips a date ("-20251001") or "-latest" suffix.
func baseModel(model string) string {
	if b, ok := strings.CutSuffix(model, "-latest"); ok {
		return b
	}
	i := strings.LastIndexByte(model, '-')
	if i < 0 || len(model)-i-1 != 8 {
		return model
	}
	for _, r := range model[i+1:] {
		if r < '0' || r > '9' {
			return model
		}
	}
	return model[:i]
}

// Usage is the token counts of one call, as the API reports them: input
// (uncached), output, and prompt-cache reads and 5-minute writes.
type Usage struct {
	Input, Output, CacheRead, CacheWrite int64
}

// Cost returns the estimated cost in US dollars of usage on model and
// whether the model's price is known: Σ tokens × rate / 1e6 (scenario 7.6,
// with the cache categories added). An unknown model's cost is unknown:
// (0, false), which api_call_log stores as NULL, never as $0.
func Cost(model string, u Usage) (float64, bool) {
	p, ok := Price(model)
	if !ok {
		return 0, false
	}
	if p.LongContext != nil && u.Input+u.CacheRead+u.CacheWrite > p.LongContextAbove {
		p = *p.LongContext
	}
	return (float64(u.Input)*p.Input + float64(u.Output)*p.Output +
		float64(u.CacheRead)*p.CacheRead + float64(u.CacheWrite)*p.CacheWrite5m) / 1e6, true
}

// InputHash returns the first 16 hex digits of the SHA-256 of the user
// message (FR-088).
func InputHash(user string) string {
	sum := sha256.Sum256([]byte(user))
	return hex.EncodeToString(sum[:])[:16]
}
