package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Pricing is a model's price in US dollars per million tokens.
type Pricing struct {
	Input, Output float64
}

// prices maps model-id prefixes to prices (D32: hardcoded, one place to
// update). Haiku 4.5 and Sonnet 4.5 are the spec's figures (FR-095); the
// others are Anthropic's list prices for the models Paige can be pointed at
// through PAIGE_MODEL_*. The longest matching prefix wins, so dated ids and
// aliases ("claude-sonnet-4-5") price the same.
var prices = map[string]Pricing{
	"claude-haiku-4-5":   {Input: 0.80, Output: 4.00},
	"claude-sonnet-4-5":  {Input: 3.00, Output: 15.00},
	"claude-sonnet-4":    {Input: 3.00, Output: 15.00},
	"claude-opus-4-6":    {Input: 5.00, Output: 25.00},
	"claude-opus-4-5":    {Input: 5.00, Output: 25.00},
	"claude-opus-4-1":    {Input: 15.00, Output: 75.00},
	"claude-opus-4-0":    {Input: 15.00, Output: 75.00},
	"claude-opus-4-2025": {Input: 15.00, Output: 75.00},
	"claude-3-7-sonnet":  {Input: 3.00, Output: 15.00},
	"claude-3-5-haiku":   {Input: 0.80, Output: 4.00},
	"claude-3-haiku":     {Input: 0.25, Output: 1.25},
}

// Price returns the pricing of model and whether it is known.
func Price(model string) (Pricing, bool) {
	best, found := "", false
	for prefix := range prices {
		if strings.HasPrefix(model, prefix) && len(prefix) > len(best) {
			best, found = prefix, true
		}
	}
	return prices[best], found
}

// Cost returns the estimated cost in US dollars of a call to model:
// (in×rate_in + out×rate_out)/1e6 (scenario 7.6). An unknown model costs 0.
func Cost(model string, in, out int64) float64 {
	p, ok := Price(model)
	if !ok {
		return 0
	}
	return (float64(in)*p.Input + float64(out)*p.Output) / 1e6
}

// InputHash returns the first 16 hex digits of the SHA-256 of the user
// message (FR-088).
func InputHash(user string) string {
	sum := sha256.Sum256([]byte(user))
	return hex.EncodeToString(sum[:])[:16]
}
