package extract

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/paige-dev/paige/internal/llm"
)

// New returns the extractor a --model value names:
//
//	"" or "heuristic"        Heuristic (no model)
//	"haiku", "sonnet", "opus" Claude at that tier (needs an API key)
//	"claude:<model id>"      Claude with an explicit model id
//	"ollama:<name>"          Ollama model <name> at ollamaURL
//
// Claude without an API key is [llm.ErrNoModel]; anything else unknown is
// an error naming the accepted values.
func New(spec string, client *llm.Client, ollamaURL string, httpClient *http.Client) (Extractor, error) {
	spec = strings.TrimSpace(spec)
	name, arg, _ := strings.Cut(spec, ":")
	switch strings.ToLower(name) {
	case "", "heuristic":
		return Heuristic{}, nil
	case "haiku", "sonnet", "opus", "claude":
		if client == nil || !client.Available() {
			return nil, fmt.Errorf("--model %s: %w", spec, llm.ErrNoModel)
		}
		if strings.EqualFold(name, "claude") {
			if arg == "" {
				return nil, fmt.Errorf("--model claude:<model id>: model id missing")
			}
			return &Claude{Client: client, Model: arg}, nil
		}
		return &Claude{Client: client, Tier: llm.Tier(strings.ToLower(name))}, nil
	case "ollama":
		if arg == "" {
			return nil, fmt.Errorf("--model ollama:<name>: model name missing")
		}
		return &Ollama{URL: ollamaURL, Model: arg, Client: httpClient}, nil
	}
	return nil, fmt.Errorf("unknown model %q: use heuristic, haiku, sonnet, opus, claude:<id> or ollama:<name>", spec)
}
