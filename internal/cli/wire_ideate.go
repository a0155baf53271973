package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/httpapi"
	"github.com/paige-dev/paige/internal/ideate/store"
	"github.com/paige-dev/paige/internal/llm"
)

// ideateSettings is GhostPath's configuration beyond config.Config, under
// the spec's names (§0.4).
type ideateSettings struct {
	model         string // AGENT_MODEL, else PAIGE_MODEL_OPUS, else claude-opus-4-6
	maxIterations int    // AGENT_MAX_ITERATIONS (50)
	client        agent.ClientOptions
	corsOrigins   []string // CORS_ORIGINS: comma-separated or a JSON list
	databaseURL   string   // DATABASE_URL, SQLAlchemy driver suffix dropped
	specDir       string   // DATA_DIR/ghostpath/specs
}

// loadIdeateSettings reads the settings; a malformed number is an error
// naming the variable.
func loadIdeateSettings(cfg config.Config, getenv func(string) string) (ideateSettings, error) {
	s := ideateSettings{
		model:       firstNonEmpty(getenv("AGENT_MODEL"), cfg.ModelOpus, agent.DefaultModel),
		specDir:     filepath.Join(cfg.DataDir, "ghostpath", "specs"),
		databaseURL: postgresURL(cfg.DatabaseURL),
	}
	ints := []struct {
		name string
		def  int
		min  int
		dst  *int
	}{
		{"AGENT_MAX_ITERATIONS", 50, 1, &s.maxIterations},
		{"ANTHROPIC_MAX_RETRIES", 3, 0, &s.client.MaxRetries},
	}
	for _, v := range ints {
		n, err := envInt(getenv, v.name, v.def, v.min)
		if err != nil {
			return s, err
		}
		*v.dst = n
	}
	if s.client.MaxRetries == 0 {
		s.client.MaxRetries = -1 // ClientOptions: negative means no retries
	}
	durs := []struct {
		name string
		def  int
		unit time.Duration
		dst  *time.Duration
	}{
		{"ANTHROPIC_BASE_DELAY_MS", 1000, time.Millisecond, &s.client.BaseDelay},
		{"ANTHROPIC_MAX_DELAY_MS", 60_000, time.Millisecond, &s.client.MaxDelay},
		{"ANTHROPIC_TIMEOUT_SECONDS", int(llm.DeadlineAgentTurn / time.Second), time.Second, &s.client.Timeout},
	}
	for _, v := range durs {
		n, err := envInt(getenv, v.name, v.def, 1)
		if err != nil {
			return s, err
		}
		*v.dst = time.Duration(n) * v.unit
	}
	s.corsOrigins = corsOrigins(getenv("CORS_ORIGINS"))
	return s, nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func envInt(getenv func(string) string, name string, def, min int) (int, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min {
		return 0, fmt.Errorf("%s must be an integer >= %d, got %q", name, min, v)
	}
	return n, nil
}

// corsOrigins parses "a,b" or `["a","b"]`; empty means the spec's default.
func corsOrigins(v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	var list []string
	if json.Unmarshal([]byte(v), &list) == nil {
		return list
	}
	for _, o := range strings.Split(v, ",") {
		if o = strings.TrimSpace(o); o != "" {
			list = append(list, o)
		}
	}
	return list
}

// postgresURL accepts the spec's SQLAlchemy form (postgresql+asyncpg://…)
// by dropping the driver suffix pgx does not know.
func postgresURL(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return raw
	}
	if scheme, _, ok := strings.Cut(u.Scheme, "+"); ok {
		u.Scheme = scheme
		return u.String()
	}
	return raw
}

// wireIdeate opens GhostPath's store (DATA_DIR/ghostpath.db, or PostgreSQL
// when DATABASE_URL is set) and mounts its API under /api/v1/. Shutdown
// cancels running agent loops (their last turn is persisted) before the
// store closes.
func wireIdeate(ctx context.Context, a *app, mux *routeMux) error {
	log := a.log.With("component", "ghostpath")
	getenv := a.cfg.Env
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	s, err := loadIdeateSettings(a.cfg, getenv)
	if err != nil {
		return err
	}
	repo, err := store.Open(ctx, a.cfg.DataDir, s.databaseURL)
	if err != nil {
		return fmt.Errorf("open ghostpath database: %w", err)
	}
	a.onClose("ghostpath database", func(context.Context) error { return repo.Close() })
	sdk := llm.FromConfig(a.cfg, nil, log).SDK()
	s.client.Logger = log
	runner := agent.NewRunner(agent.NewClient(&sdk.Messages, &s.client), repo, &agent.Options{
		Model: s.model, MaxIterations: s.maxIterations, SpecDir: s.specDir, Offline: !a.cfg.HasModel(), Logger: log,
	})
	api := httpapi.New(httpapi.Options{Repo: repo, Runner: runner, Logger: log, CORSOrigins: s.corsOrigins})
	api.Routes(mux)
	a.onShutdown = append(a.onShutdown, api.Shutdown)
	a.onClose("ghostpath runs", api.Close)
	// Runs a restart interrupted continue by themselves; a failure to list
	// them only means they wait for their page to be opened.
	if _, err := api.ResumeInterrupted(ctx); err != nil {
		log.Error("ghostpath: resume interrupted runs", "err", err)
	}
	log.Info("ghostpath ready", "engine", repo.Engine(), "model", s.model, "specs", s.specDir)
	return nil
}
