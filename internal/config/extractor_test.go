package config

import (
	"strings"
	"testing"
)

// TestExtractor: PAIGE_EXTRACTOR is auto by default, accepts auto,
// heuristic and model in any case, and refuses anything else by name.
func TestExtractor(t *testing.T) {
	for in, want := range map[string]string{"": ExtractorAuto, "auto": ExtractorAuto, " Heuristic ": ExtractorHeuristic, "MODEL": ExtractorModel} {
		c, err := Load(env(map[string]string{"HOME": "/h", "PAIGE_EXTRACTOR": in}))
		if err != nil || c.Extractor != want {
			t.Errorf("PAIGE_EXTRACTOR=%q: got %q, %v; want %q", in, c.Extractor, err, want)
		}
	}
	for _, in := range []string{"haiku", "llm", "auto,model"} {
		_, err := Load(env(map[string]string{"HOME": "/h", "PAIGE_EXTRACTOR": in}))
		if err == nil || !strings.Contains(err.Error(), "PAIGE_EXTRACTOR must be one of auto, heuristic, model") || !strings.Contains(err.Error(), in) {
			t.Errorf("PAIGE_EXTRACTOR=%q: got %v, want an error naming the variable, the values and %q", in, err, in)
		}
	}
}
