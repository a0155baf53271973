package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadDefaults(t *testing.T) {
	c, err := Load(env(map[string]string{"HOME": "/home/u"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Port: 3000, Host: "127.0.0.1", DataDir: "/home/u/.paige", ModelHaiku: DefaultModelHaiku,
		ModelSonnet: DefaultModelSonnet, ModelOpus: DefaultModelOpus, Embedder: "lexical", Memory: "embedded",
		OllamaURL: "http://localhost:11434", MCPSessionTimeout: DefaultMCPSessionTimeout, Extractor: ExtractorAuto,
		Ideate: Ideate{AgentModel: DefaultModelOpus, MaxIterations: 50, MaxRetries: 3, BaseDelay: time.Second,
			MaxDelay: time.Minute, Timeout: 300 * time.Second, ResumeWindow: time.Hour},
		Learn:   Learn{LearnQueue: Detached, CoachIdle: DefaultCoachIdle, Mode: ModeAuto, SeedPath: "/home/u/.pai/seed.json"},
		Process: Process{Home: "/home/u"}}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if c.ChromaURL() != DefaultChromaDBURL || c.HasModel() || c.Addr() != "127.0.0.1:3000" {
		t.Errorf("derived values: %s %v %s", c.ChromaURL(), c.HasModel(), c.Addr())
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name  string
		vars  map[string]string
		check func(Config) bool
	}{
		{"port", map[string]string{"PORT": " 8080 "}, func(c Config) bool { return c.Port == 8080 }},
		{"port zero", map[string]string{"PORT": "0"}, func(c Config) bool { return c.Port == 0 }},
		{"tilde paths", map[string]string{"HOME": "/h", "DATA_DIR": "~/d", "PROJECT_DIR": "~/p"},
			func(c Config) bool { return c.DataDir == "/h/d" && c.ProjectDir == "/h/p" }},
		{"relative project made absolute", map[string]string{"PROJECT_DIR": "proj"}, func(c Config) bool { return filepath.IsAbs(c.ProjectDir) }},
		{"offline", map[string]string{"PAIGE_OFFLINE": "yes"}, func(c Config) bool { return c.Offline }},
		{"offline off", map[string]string{"PAIGE_OFFLINE": "0"}, func(c Config) bool { return !c.Offline }},
		{"chroma selects memory", map[string]string{"CHROMADB_URL": "http://c:8000"}, func(c Config) bool { return c.Memory == "chroma" && c.ChromaURL() == "http://c:8000" }},
		{"explicit memory wins", map[string]string{"CHROMADB_URL": "http://c", "PAIGE_MEMORY": "embedded"}, func(c Config) bool { return c.Memory == "embedded" }},
		{"key trimmed", map[string]string{"ANTHROPIC_API_KEY": "  k  "}, func(c Config) bool { return c.AnthropicAPIKey == "k" && c.HasModel() }},
		{"model override", map[string]string{"PAIGE_MODEL_SONNET": "s2"}, func(c Config) bool { return c.ModelSonnet == "s2" }},
		{"ollama", map[string]string{"OLLAMA_HOST": "http://o"}, func(c Config) bool { return c.OllamaURL == "http://o" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(env(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("got %+v", c)
			}
		})
	}
	for _, bad := range []string{"http", "-1", "65536", "3000x"} {
		if _, err := Load(env(map[string]string{"PORT": bad})); err == nil || !strings.Contains(err.Error(), "PORT") {
			t.Errorf("PORT=%q: err = %v", bad, err)
		}
	}
}

func TestValidateServe(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	tests := []struct {
		name string
		c    Config
		want []string // substrings; none means valid
	}{
		{"valid", Config{ProjectDir: dir, AnthropicAPIKey: "k"}, nil},
		{"offline", Config{ProjectDir: dir, Offline: true}, nil},
		{"both missing", Config{}, []string{"PROJECT_DIR", "ANTHROPIC_API_KEY", "PAIGE_OFFLINE"}},
		{"blank project", Config{ProjectDir: "  ", AnthropicAPIKey: "k"}, []string{"PROJECT_DIR"}},
		{"absent", Config{ProjectDir: filepath.Join(dir, "nope"), AnthropicAPIKey: "k"}, []string{"does not exist"}},
		{"a file", Config{ProjectDir: file, AnthropicAPIKey: "k"}, []string{"not a directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.ValidateServe()
			if (err != nil) != (tt.want != nil) {
				t.Fatalf("err = %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
}

// EC-04: the environment wins over .env; a missing .env is ignored.
func TestLookup(t *testing.T) {
	dir := t.TempDir()
	dotenv := filepath.Join(dir, ".env")
	os.WriteFile(dotenv, []byte("PORT=4000\nPROJECT_DIR=/from/file\n"), 0o644)
	get := Lookup(env(map[string]string{"PORT": "5000"}), dotenv)
	if get("PORT") != "5000" || get("PROJECT_DIR") != "/from/file" || get("NOPE") != "" {
		t.Errorf("got PORT=%q PROJECT_DIR=%q", get("PORT"), get("PROJECT_DIR"))
	}
	missing := Lookup(env(map[string]string{"PORT": "1"}), filepath.Join(dir, "absent.env"))
	if missing("PORT") != "1" || missing("PROJECT_DIR") != "" {
		t.Error("missing .env not ignored")
	}
}
