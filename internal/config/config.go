// Package config turns the environment (and an optional .env file) into a
// typed [Config].
//
// Environment variables always win over the .env file, as with dotenv. Names
// from the specs are kept (PORT, PROJECT_DIR, CHROMADB_URL, ANTHROPIC_API_KEY,
// DATA_DIR, DATABASE_URL, LOG_LEVEL, LOG_FORMAT); names added by Paige start
// with PAIGE_. Zero values in a Config mean the documented defaults.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/joho/godotenv"
)

// Defaults used when a variable is unset or empty.
const (
	DefaultPort        = 3000
	DefaultHost        = "127.0.0.1"
	DefaultChromaDBURL = "http://localhost:8000"
	DefaultModelHaiku  = "claude-haiku-4-5-20251001"
	DefaultModelSonnet = "claude-sonnet-4-5-20250929"
	DefaultModelOpus   = "claude-opus-4-6"
	// The values of PAIGE_EXTRACTOR (see [Config.Extractor]).
	ExtractorAuto      = "auto"
	ExtractorHeuristic = "heuristic"
	ExtractorModel     = "model"
	// DefaultMCPSessionTimeout is how long an MCP session may stay idle
	// (no request from its client) before the server closes it.
	DefaultMCPSessionTimeout = 30 * time.Minute
	// DefaultCoachIdle is how long a coaching session may go without
	// activity (PAIGE_COACH_IDLE): a working day and the night after it.
	DefaultCoachIdle = 24 * time.Hour
)

// Config is Paige's whole configuration. It is a plain value: safe to copy.
type Config struct {
	Port            int    // PORT; default 3000
	Host            string // HOST; default 127.0.0.1
	ProjectDir      string // PROJECT_DIR; absolute after Load when set
	DataDir         string // DATA_DIR; default ~/.paige
	AnthropicAPIKey string // ANTHROPIC_API_KEY
	AnthropicURL    string // ANTHROPIC_BASE_URL; empty means the SDK default
	ChromaDBURL     string // CHROMADB_URL; empty means unset (see [Config.ChromaURL])
	DatabaseURL     string // DATABASE_URL; empty means SQLite in DataDir (ideate)
	LogLevel        string // LOG_LEVEL: debug, info, warn, error; default info
	LogFormat       string // LOG_FORMAT: text or json; default text on a TTY, json otherwise

	Offline     bool   // PAIGE_OFFLINE=1: no Claude key needed; model features answer ErrNoModel
	ModelHaiku  string // PAIGE_MODEL_HAIKU
	ModelSonnet string // PAIGE_MODEL_SONNET
	ModelOpus   string // PAIGE_MODEL_OPUS
	Embedder    string // PAIGE_EMBEDDER: lexical (default), ollama, openai
	Memory      string // PAIGE_MEMORY: embedded (default) or chroma
	OllamaURL   string // OLLAMA_HOST / PAIGE_OLLAMA_URL; default http://localhost:11434
	// Extractor (PAIGE_EXTRACTOR) is how learn extracts knowledge:
	// ExtractorAuto (the default: heuristics on every turn, and the learn
	// model — PAIGE_LEARN_MODEL, else haiku with a Claude key — only on the
	// turns the classifier flags as candidates; no model configured means
	// heuristics only), ExtractorHeuristic (never a model) or
	// ExtractorModel (the model on every signal turn; an error without one).
	Extractor string

	// AllowedHosts (PAIGE_ALLOWED_HOSTS) are Host header values accepted
	// besides the loopback names: "name" (any port) or "name:port",
	// lowercase. See docs/security.md.
	AllowedHosts []string
	// AllowedOrigins (PAIGE_ALLOWED_ORIGINS) are browser origins accepted
	// besides the server's own, "scheme://host[:port]", lowercase (e.g. an
	// editor extension's webview).
	AllowedOrigins []string
	// MCPSessionTimeout (PAIGE_MCP_SESSION_TIMEOUT, a Go duration such as
	// "30m") closes MCP sessions idle that long; default 30 minutes.
	MCPSessionTimeout time.Duration

	Ideate    Ideate    // GhostPath
	Learn     Learn     // shadow learning, the seed, the Claude Code hooks
	Embedding Embedding // the memory store's embedder
	Process   Process   // the binary, secrets, and what the system sets
}

// ErrNoModel is returned by model-driven features when no Claude key is
// configured (PAIGE_OFFLINE=1 without ANTHROPIC_API_KEY).
var ErrNoModel = errors.New("no model configured: set ANTHROPIC_API_KEY (PAIGE_OFFLINE=1 is set)")

// Lookup returns a getenv that answers from getenv first and, for names it
// leaves empty, from the .env file at dotenvPath (missing file: ignored, EC-04).
func Lookup(getenv func(string) string, dotenvPath string) func(string) string {
	file, err := godotenv.Read(dotenvPath)
	if err != nil {
		file = nil
	}
	return func(name string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return file[name]
	}
}

// Load reads every variable Paige uses from env (docs/configuration.md lists
// them all; a test keeps the two in step). A malformed value (PORT, a
// number, a duration, a list entry, one of a fixed set) is an error naming
// the variable, joined with the others; the returned Config is complete
// even then, with the default in place of each malformed value, so a hook
// that must never fail can go on with it. Missing required values are
// reported by [Config.ValidateServe].
func Load(env func(string) string) (Config, error) {
	c := Config{
		Host:            env("HOST"),
		ProjectDir:      env("PROJECT_DIR"),
		DataDir:         env("DATA_DIR"),
		AnthropicAPIKey: strings.TrimSpace(env("ANTHROPIC_API_KEY")),
		AnthropicURL:    env("ANTHROPIC_BASE_URL"),
		ChromaDBURL:     env("CHROMADB_URL"),
		DatabaseURL:     env("DATABASE_URL"),
		LogLevel:        env("LOG_LEVEL"),
		LogFormat:       env("LOG_FORMAT"),
		Offline:         truthy(env("PAIGE_OFFLINE")),
		ModelHaiku:      or(env("PAIGE_MODEL_HAIKU"), DefaultModelHaiku),
		ModelSonnet:     or(env("PAIGE_MODEL_SONNET"), DefaultModelSonnet),
		ModelOpus:       or(env("PAIGE_MODEL_OPUS"), DefaultModelOpus),
		Embedder:        or(env("PAIGE_EMBEDDER"), "lexical"),
		Memory:          env("PAIGE_MEMORY"),
		OllamaURL:       or(env("PAIGE_OLLAMA_URL"), or(env("OLLAMA_HOST"), "http://localhost:11434")),
	}
	if c.Host == "" {
		c.Host = DefaultHost
	}
	var errs []error
	c.Port = DefaultPort
	if p := strings.TrimSpace(env("PORT")); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 65535 {
			errs = append(errs, fmt.Errorf("PORT must be a number between 0 and 65535, got %q", p))
		} else {
			c.Port = n
		}
	}
	errs = append(errs, c.loadSecurity(env))
	extractor, err := oneOf(env("PAIGE_EXTRACTOR"), "PAIGE_EXTRACTOR", ExtractorAuto, ExtractorHeuristic, ExtractorModel)
	c.Extractor = extractor
	errs = append(errs, err)
	if c.DataDir == "" {
		home := env("HOME")
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		c.DataDir = filepath.Join(home, ".paige")
	}
	c.DataDir = expandHome(c.DataDir, env("HOME"))
	if c.ProjectDir != "" {
		c.ProjectDir = expandHome(c.ProjectDir, env("HOME"))
		if abs, err := filepath.Abs(c.ProjectDir); err == nil {
			c.ProjectDir = abs
		}
	}
	if c.Memory == "" {
		c.Memory = "embedded"
		if c.ChromaDBURL != "" {
			c.Memory = "chroma"
		}
	}
	errs = append(errs, c.loadSettings(env))
	return c, errors.Join(errs...)
}

// ChromaURL returns the ChromaDB URL to use, the spec default when unset.
func (c Config) ChromaURL() string { return or(c.ChromaDBURL, DefaultChromaDBURL) }

// HasModel reports whether a Claude key is configured.
func (c Config) HasModel() bool { return c.AnthropicAPIKey != "" }

// Addr returns the listen address host:port.
func (c Config) Addr() string { return fmt.Sprintf("%s:%d", c.Host, c.Port) }

// ValidateServe checks what `paige serve` needs: PROJECT_DIR and
// ANTHROPIC_API_KEY set and non-empty (the key is not needed when Offline),
// and PROJECT_DIR existing as a directory. The error names every missing
// variable (FR-005, FR-006).
func (c Config) ValidateServe() error {
	var missing []string
	if strings.TrimSpace(c.ProjectDir) == "" {
		missing = append(missing, "PROJECT_DIR")
	}
	if c.AnthropicAPIKey == "" && !c.Offline {
		missing = append(missing, "ANTHROPIC_API_KEY")
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("missing required environment variable(s): %s", strings.Join(missing, ", "))
		if c.AnthropicAPIKey == "" && !c.Offline {
			msg += " (set PAIGE_OFFLINE=1 to run without a Claude key)"
		}
		return errors.New(msg)
	}
	fi, err := os.Stat(c.ProjectDir)
	if err != nil {
		return fmt.Errorf("PROJECT_DIR does not exist: %s", c.ProjectDir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("PROJECT_DIR is not a directory: %s", c.ProjectDir)
	}
	return nil
}

func truthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func or(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func expandHome(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}
