package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/coach/terminal"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/llm"
	"github.com/paige-dev/paige/internal/memory"
	"github.com/paige-dev/paige/internal/server"
)

func newServeCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run the Paige server on HOST:PORT (default 127.0.0.1:3000)",
		Long: `Run the Paige server: the workbench on / (open the URL it prints first: it carries
the terminal's key), MCP for Claude Code on /mcp, WebSocket for the editor on /ws, the
workbench terminal on /pty, GhostPath on /ghostpath/, GET /health, and GET /api/v1/status
(what the workbench's Status page shows). The startup output also says how to connect
Claude Code (paige claude install, or claude mcp add with this server's MCP URL).

Required: PROJECT_DIR (the project being coached), ANTHROPIC_API_KEY (or PAIGE_OFFLINE=1).
See docs/configuration.md for every variable.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(cmd.Context(), e)
		},
	}
}

// app collects what serve opens, so shutdown can close it in reverse order.
type app struct {
	cfg        config.Config
	log        *slog.Logger
	start      time.Time
	closers    []server.Closer
	onShutdown []func()
	key        *terminal.Key     // the terminal's per-process key; nil without the workbench
	term       *terminal.Manager // the workbench terminal (/pty); nil without the workbench
	policy     *server.Policy    // the origin/host policy every route is served behind
	calls      llm.CallLogger    // api_call_log (the coach's action log); set by wireCoach, used by learn
	mem        memory.Store      // the coach's memory store; nil when it could not be opened
	dbs        *databases        // the stores being opened beside the coach's (databases.go)
	status     statusDeps        // what GET /api/v1/status reads (status.go); set by wireCoach
}

func (a *app) onClose(name string, f func(context.Context) error) {
	a.closers = append(a.closers, server.Closer{Name: name, Close: f})
}

// originPolicy is the policy every route is served behind: the hosts and
// origins the user listed (PAIGE_ALLOWED_HOSTS, PAIGE_ALLOWED_ORIGINS),
// plus the origins of an explicitly set CORS_ORIGINS: whoever is allowed
// to call GhostPath's API from a browser must pass the policy first. The
// API's default CORS origins (the Vite dev server) are not trusted unless
// listed. A CORS_ORIGINS entry that is not an exact origin ("*", "null")
// is left out of the policy with a warning.
func originPolicy(cfg config.Config, log *slog.Logger) *server.Policy {
	p := &server.Policy{AllowedHosts: cfg.AllowedHosts, AllowedOrigins: append([]string(nil), cfg.AllowedOrigins...)}
	for _, o := range cfg.Ideate.CORSOrigins {
		n, err := config.ParseOrigin(o)
		if err != nil {
			log.Warn("CORS_ORIGINS entry not trusted by the origin policy", "origin", o, "err", err)
			continue
		}
		p.AllowedOrigins = append(p.AllowedOrigins, n)
	}
	if len(p.AllowedHosts)+len(p.AllowedOrigins) > 0 {
		log.Info("origin policy", "allowed_hosts", p.AllowedHosts, "allowed_origins", p.AllowedOrigins)
	}
	return p
}

// serve follows parse, open, wire, run, close. Configuration errors exit 1
// before anything is opened (FR-005, FR-006).
func serve(ctx context.Context, e *env) error {
	start := time.Now()
	cfg, err := config.Load(e.getenv)
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	if err := cfg.ValidateServe(); err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	log := newLogger(e.stdout, cfg.LogFormat, cfg.LogLevel)
	tuneGC(log, cfg.Process.GOGC)                           // process-wide, so the app sets it, not a capability's wiring
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil { // FR-007
		return &ExitError{Code: 1, Err: fmt.Errorf("create DATA_DIR %s: %w", cfg.DataDir, err)}
	}
	if !cfg.HasModel() {
		log.Warn("no ANTHROPIC_API_KEY: running offline, model features answer \"no model configured\"")
	}
	a := &app{cfg: cfg, log: log, start: start, policy: originPolicy(cfg, log)}
	mux := newRouteMux()
	err = wire(ctx, a, mux)
	if err == nil {
		err = server.Serve(ctx, cfg.Addr(), mux, &server.Options{
			Policy:     a.policy,
			Logger:     log,
			Closers:    a.closers,
			OnShutdown: a.onShutdown,
			Ready: func(addr net.Addr) {
				log.Info("paige ready", "addr", addr.String(), "project", cfg.ProjectDir,
					"data", cfg.DataDir, "startup", time.Since(start).String())
				base := "http://" + addr.String()
				if a.term != nil {
					a.term.SetServerURL(base)
					fmt.Fprintf(e.stdout, "Paige workbench: %s\n", a.key.URL(base))
				}
				fmt.Fprintf(e.stdout, "Paige is ready on %s\n  MCP (Claude Code): %s/mcp\n  WebSocket (editor): ws://%s/ws\n  GhostPath:          %s/ghostpath/\n  Health:             %s/health\n",
					base, base, addr.String(), base, base)
				c := connectLines(base)
				fmt.Fprintf(e.stdout, "  Status:             %s/status\nConnect Claude Code:  %s\n                  or: %s\nStart coaching:       %s (in Claude Code)\n",
					base, c.Install, c.MCPAdd, c.Coach)
			},
		})
	} else {
		// Close what wiring opened before it failed.
		server.RunClosers(ctx, log, a.closers, server.DefaultShutdownTimeout)
		if ctx.Err() != nil { // SIGINT/SIGTERM during startup is a clean stop (EC-05)
			log.Info("interrupted during startup", "err", err)
			err = nil
		}
	}
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	log.Info("paige stopped")
	return nil
}
