package embedding

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
)

// maxResponseBytes bounds a remote embedder's answer (64 texts × 3072
// dimensions as JSON is a few MB).
const maxResponseBytes = 64 << 20

// remote is the shared HTTP plumbing of Ollama and OpenAI-compatible servers.
type remote struct {
	id     string
	url    string // full endpoint URL
	model  string
	key    string // bearer token; empty sends none
	client *http.Client
	dims   atomic.Int64
	decode func(body []byte) ([][]float32, error)
}

// Ollama embeds through an Ollama server's POST /api/embed.
type Ollama struct{ remote }

// OpenAI embeds through an OpenAI-compatible POST {base}/embeddings.
type OpenAI struct{ remote }

var (
	_ Embedder = (*Ollama)(nil)
	_ Embedder = (*OpenAI)(nil)
)

// NewOllama returns an embedder for the Ollama server at baseURL (e.g.
// http://localhost:11434) using model (DefaultOllamaModel when empty). A nil
// client means http.DefaultClient.
func NewOllama(baseURL, model string, client *http.Client) *Ollama {
	if model == "" {
		model = DefaultOllamaModel
	}
	o := &Ollama{remote{id: "ollama/" + model, url: strings.TrimRight(baseURL, "/") + "/api/embed", model: model, client: client}}
	o.decode = func(body []byte) ([][]float32, error) {
		var r struct {
			Embeddings [][]float32 `json:"embeddings"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, err
		}
		return r.Embeddings, nil
	}
	return o
}

// NewOpenAI returns an embedder for the OpenAI-compatible API at baseURL
// (DefaultOpenAIURL when empty; the base includes /v1) using model
// (DefaultOpenAIModel when empty) and bearer key (none when empty).
func NewOpenAI(baseURL, model, key string, client *http.Client) *OpenAI {
	if baseURL == "" {
		baseURL = DefaultOpenAIURL
	}
	if model == "" {
		model = DefaultOpenAIModel
	}
	o := &OpenAI{remote{id: "openai/" + model, url: strings.TrimRight(baseURL, "/") + "/embeddings", model: model, key: key, client: client}}
	o.decode = func(body []byte) ([][]float32, error) {
		var r struct {
			Data []struct {
				Index     int       `json:"index"`
				Embedding []float32 `json:"embedding"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, err
		}
		sort.SliceStable(r.Data, func(i, j int) bool { return r.Data[i].Index < r.Data[j].Index })
		out := make([][]float32, len(r.Data))
		for i, d := range r.Data {
			out[i] = d.Embedding
		}
		return out, nil
	}
	return o
}

// ID returns "<kind>/<model>".
func (r *remote) ID() string { return r.id }

// Dimensions returns the vector length seen in the last answer, 0 before any.
func (r *remote) Dimensions() int { return int(r.dims.Load()) }

// Embed sends texts in batches of BatchSize and returns normalised vectors.
// Empty texts are sent as a single space (servers reject empty input) and
// come back as zero vectors.
func (r *remote) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += BatchSize {
		batch := texts[start:min(start+BatchSize, len(texts))]
		vecs, err := r.embedBatch(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embed %s: %w", r.id, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (r *remote) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	input := make([]string, len(batch))
	for i, t := range batch {
		input[i] = t
		if strings.TrimSpace(t) == "" {
			input[i] = " "
		}
	}
	body, _ := json.Marshal(map[string]any{"model": r.model, "input": input})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if r.key != "" {
		req.Header.Set("Authorization", "Bearer "+r.key)
	}
	client := r.client
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes))
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %d: %s", r.url, res.StatusCode, snippet(raw))
	}
	vecs, err := r.decode(raw)
	if err != nil {
		return nil, fmt.Errorf("decode answer: %w", err)
	}
	if err := checkVectors(vecs, len(batch)); err != nil {
		return nil, err
	}
	d := int64(len(vecs[0]))
	if prev := r.dims.Load(); prev != 0 && prev != d {
		return nil, fmt.Errorf("dimensions changed from %d to %d", prev, d)
	}
	r.dims.Store(d)
	for i, t := range batch {
		if strings.TrimSpace(t) == "" {
			clear(vecs[i])
		}
	}
	return vecs, nil
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
