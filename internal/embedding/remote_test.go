package embedding_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/embedding"
)

// fakeServer answers embedding requests with vector [len(text), 1, 0] per
// input and records what it got.
type fakeServer struct {
	mu     sync.Mutex
	bodies []map[string]any
	auth   []string
	status int
}

func (f *fakeServer) vec(text string) []float32 { return []float32{float32(len(text)), 1, 0} }

func (f *fakeServer) handler(openai bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.bodies = append(f.bodies, body)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		status := f.status
		f.mu.Unlock()
		if status != 0 {
			http.Error(w, `{"error":"model not found"}`, status)
			return
		}
		inputs, _ := body["input"].([]any)
		if openai {
			var data []map[string]any
			for i := len(inputs) - 1; i >= 0; i-- { // out of order on purpose
				data = append(data, map[string]any{"index": i, "embedding": f.vec(inputs[i].(string))})
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
			return
		}
		var embs [][]float32
		for _, in := range inputs {
			embs = append(embs, f.vec(in.(string)))
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"embeddings": embs})
	})
}

func TestRemoteEmbedders(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		openai bool
		make   func(url string) embedding.Embedder
		id     string
		auth   string
	}{
		{"ollama", "/api/embed", false, func(u string) embedding.Embedder { return embedding.NewOllama(u, "", nil) }, "ollama/nomic-embed-text", ""},
		{"openai", "/v1/embeddings", true, func(u string) embedding.Embedder { return embedding.NewOpenAI(u+"/v1", "m-small", "sk-1", nil) }, "openai/m-small", "Bearer sk-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeServer{}
			mux := http.NewServeMux()
			mux.Handle("POST "+tt.path, f.handler(tt.openai))
			srv := httptest.NewServer(mux)
			defer srv.Close()
			e := tt.make(srv.URL)
			if e.Dimensions() != 0 || e.ID() != tt.id {
				t.Errorf("before first call: dims %d id %q", e.Dimensions(), e.ID())
			}
			texts := make([]string, embedding.BatchSize+6)
			for i := range texts {
				texts[i] = strings.Repeat("x", i+1)
			}
			texts[3] = ""
			vecs, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(vecs) != len(texts) || e.Dimensions() != 3 {
				t.Fatalf("got %d vectors of %d dims", len(vecs), e.Dimensions())
			}
			for i, v := range vecs {
				if i == 3 {
					if v[0] != 0 || v[1] != 0 {
						t.Errorf("empty text: got %v, want zero vector", v)
					}
					continue
				}
				n := float64(len(texts[i]))
				want := float32(n / math.Sqrt(n*n+1))
				if math.Abs(float64(v[0]-want)) > 1e-6 {
					t.Errorf("vector %d: got %v, want normalised [%v …] in input order", i, v, want)
				}
			}
			if len(f.bodies) != 2 || f.bodies[0]["model"] == "" || len(f.bodies[0]["input"].([]any)) != embedding.BatchSize {
				t.Errorf("requests: got %d, first %v", len(f.bodies), f.bodies[0]["model"])
			}
			if f.auth[0] != tt.auth {
				t.Errorf("authorization: got %q, want %q", f.auth[0], tt.auth)
			}
		})
	}
}

func TestRemoteErrors(t *testing.T) {
	f := &fakeServer{status: 404}
	srv := httptest.NewServer(f.handler(false))
	defer srv.Close()
	_, err := embedding.NewOllama(srv.URL, "nope", nil).Embed(context.Background(), []string{"a"})
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "model not found") {
		t.Errorf("got %v, want the status and body", err)
	}
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"embeddings":[[1,2],[3]]}`))
	}))
	defer bad.Close()
	if _, err := embedding.NewOllama(bad.URL, "", nil).Embed(context.Background(), []string{"a", "b"}); err == nil {
		t.Error("ragged answer accepted")
	}
	if _, err := embedding.NewOllama(bad.URL, "", nil).Embed(context.Background(), []string{"a"}); err == nil {
		t.Error("wrong count accepted")
	}
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	if _, err := embedding.NewOpenAI(down.URL, "", "", nil).Embed(context.Background(), []string{"a"}); err == nil {
		t.Error("connection error swallowed")
	}
}

func TestFromConfig(t *testing.T) {
	tests := []struct {
		env    map[string]string
		id     string
		errSub string
	}{
		{map[string]string{}, "lexical-v1/256", ""},
		{map[string]string{"PAIGE_EMBEDDER": "ollama", "PAIGE_EMBED_MODEL": "mxbai-embed-large"}, "ollama/mxbai-embed-large", ""},
		{map[string]string{"PAIGE_EMBEDDER": "openai", "OPENAI_API_KEY": "k"}, "openai/text-embedding-3-small", ""},
		{map[string]string{"PAIGE_EMBEDDER": "openai", "PAIGE_EMBED_URL": "http://localhost:8080/v1"}, "openai/text-embedding-3-small", ""},
		{map[string]string{"PAIGE_EMBEDDER": "openai"}, "", "OPENAI_API_KEY"},
		{map[string]string{"PAIGE_EMBEDDER": "word2vec"}, "", "PAIGE_EMBEDDER must be"},
	}
	for _, tt := range tests {
		env := tt.env
		env["HOME"] = t.TempDir()
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		e, err := embedding.FromConfig(cfg)
		if tt.errSub != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errSub) {
				t.Errorf("%v: got %v, want error containing %q", env, err, tt.errSub)
			}
			continue
		}
		if err != nil || e.ID() != tt.id {
			t.Errorf("%v: got %v %v, want %s", env, e, err, tt.id)
		}
	}
}
