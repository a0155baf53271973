// Package embedding turns texts into vectors for Paige's memory store.
//
// Three embedders share the [Embedder] interface:
//
//   - lexical (default): offline and deterministic; hashed word, word-bigram
//     and character n-gram features with light stemming and sublinear TF
//     weighting, L2-normalised. No model, no network, stable across runs
//     and machines, good enough to rank "race condition in auth flow" near
//     "OAuth callback race condition" and far from "CSS grid layout".
//   - ollama: a local Ollama server's /api/embed.
//   - openai: any OpenAI-compatible /v1/embeddings endpoint.
//
// Every embedder returns L2-normalised vectors, so cosine similarity is a dot
// product. [FromConfig] selects one from PAIGE_EMBEDDER, PAIGE_EMBED_MODEL,
// PAIGE_EMBED_URL and OPENAI_API_KEY (see docs/memory.md).
package embedding

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/config"
)

// Embedder maps texts to vectors. Implementations are safe for concurrent use.
type Embedder interface {
	// Embed returns one L2-normalised vector per text, in order. All vectors
	// have the same length. An empty text embeds to a zero vector.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Dimensions is the vector length, or 0 while unknown (remote embedders
	// learn it from their first answer).
	Dimensions() int
	// ID names the embedder and model, e.g. "lexical-v1/256" or
	// "ollama/nomic-embed-text"; vectors from different IDs are not comparable.
	ID() string
}

// Defaults for the remote embedders.
const (
	DefaultOllamaModel = "nomic-embed-text"
	DefaultOpenAIModel = "text-embedding-3-small"
	DefaultOpenAIURL   = "https://api.openai.com/v1"
	// BatchSize is how many texts one HTTP request carries.
	BatchSize = 64
)

// FromConfig returns the embedder cfg selects (PAIGE_EMBEDDER):
//
//	lexical (default)  no settings
//	ollama             PAIGE_EMBED_MODEL (default nomic-embed-text), PAIGE_EMBED_URL
//	                   (default cfg.OllamaURL: PAIGE_OLLAMA_URL / OLLAMA_HOST / localhost:11434)
//	openai             OPENAI_API_KEY (required unless PAIGE_EMBED_URL is set),
//	                   PAIGE_EMBED_MODEL (default text-embedding-3-small),
//	                   PAIGE_EMBED_URL (default https://api.openai.com/v1)
func FromConfig(cfg config.Config) (Embedder, error) {
	model, url := cfg.Embedding.Model, cfg.Embedding.URL
	client := &http.Client{Timeout: 2 * time.Minute}
	switch strings.ToLower(strings.TrimSpace(cfg.Embedder)) {
	case "", "lexical":
		return NewLexical(DefaultLexicalDims), nil
	case "ollama":
		if url == "" {
			url = cfg.OllamaURL
		}
		return NewOllama(url, model, client), nil
	case "openai":
		key := cfg.Embedding.OpenAIKey
		if key == "" && url == "" {
			return nil, errors.New("PAIGE_EMBEDDER=openai needs OPENAI_API_KEY (or PAIGE_EMBED_URL for a local OpenAI-compatible server)")
		}
		return NewOpenAI(url, model, key, client), nil
	default:
		return nil, fmt.Errorf("PAIGE_EMBEDDER must be lexical, ollama or openai, got %q", cfg.Embedder)
	}
}

// normalize scales v to unit length in place; a zero vector stays zero.
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}

// checkVectors validates a remote answer: n vectors of one non-zero length,
// all finite; it normalises them in place.
func checkVectors(vecs [][]float32, n int) error {
	if len(vecs) != n {
		return fmt.Errorf("got %d embeddings for %d texts", len(vecs), n)
	}
	for i, v := range vecs {
		if len(v) == 0 || len(v) != len(vecs[0]) {
			return fmt.Errorf("embedding %d has %d dimensions, want %d", i, len(v), len(vecs[0]))
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return fmt.Errorf("embedding %d is not finite", i)
			}
		}
		normalize(v)
	}
	return nil
}
