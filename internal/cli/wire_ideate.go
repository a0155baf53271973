package cli

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/ideate/agent"
	"github.com/paige-dev/paige/internal/ideate/httpapi"
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
	resumeWindow  time.Duration
}

// ideateSettingsFrom derives GhostPath's settings from cfg (parsed and
// validated by config.Load).
func ideateSettingsFrom(cfg config.Config) ideateSettings {
	ic := cfg.Ideate
	s := ideateSettings{
		model:         firstNonEmpty(ic.AgentModel, cfg.ModelOpus, agent.DefaultModel),
		maxIterations: ic.MaxIterations,
		client:        agent.ClientOptions{MaxRetries: ic.MaxRetries, BaseDelay: ic.BaseDelay, MaxDelay: ic.MaxDelay, Timeout: ic.Timeout},
		corsOrigins:   ic.CORSOrigins,
		specDir:       filepath.Join(cfg.DataDir, "ghostpath", "specs"),
		databaseURL:   postgresURL(cfg.DatabaseURL),
		resumeWindow:  ic.ResumeWindow,
	}
	if s.resumeWindow == 0 {
		s.resumeWindow = -1 // httpapi.Options: negative resumes none
	}
	if s.maxIterations == 0 {
		s.maxIterations = config.DefaultAgentMaxIterations
	}
	if s.client.MaxRetries == 0 {
		s.client.MaxRetries = -1 // ClientOptions: negative means no retries
	}
	return s
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
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
	s := ideateSettingsFrom(a.cfg)
	repo, err := a.openedDatabases(ctx).ideate.take()
	if err != nil {
		return fmt.Errorf("open ghostpath database: %w", err)
	}
	a.onClose("ghostpath database", func(context.Context) error { return repo.Close() })
	sdk := llm.FromConfig(a.cfg, nil, log).SDK()
	s.client.Logger = log
	runner := agent.NewRunner(agent.NewClient(&sdk.Messages, &s.client), repo, &agent.Options{
		Model: s.model, MaxIterations: s.maxIterations, SpecDir: s.specDir, Offline: !a.cfg.HasModel(), Logger: log,
	})
	api := httpapi.New(httpapi.Options{Repo: repo, Runner: runner, Logger: log, CORSOrigins: s.corsOrigins,
		ResumeWindow: s.resumeWindow})
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
