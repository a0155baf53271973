// Package cli is Paige's command line: one cobra command tree that wires the
// capabilities together. It is the only package that sees the process's
// arguments, environment and standard streams, and it receives them as
// parameters so every command is testable in-process.
package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/paige-dev/paige/internal/config"
)

// Version is the build version, set with -ldflags "-X .../internal/cli.Version=…".
var Version = "dev"

// ExitError asks main to exit with Code, printing Err when non-nil.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// env is what every command receives from the process.
type env struct {
	getenv func(string) string // environment over .env
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// config loads the configuration from the command's environment. Like
// [config.Load], it returns a complete Config (defaults in place of
// malformed values) even with an error.
func (e *env) config() (config.Config, error) { return config.Load(e.getenv) }

// Run executes the command line args (without the program name) and returns
// the error main should report. A nil error means exit 0.
func Run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{
		getenv: config.Lookup(getenv, ".env"),
		stdin:  stdin,
		stdout: stdout,
		stderr: stderr,
	}
	root := newRootCmd(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root.ExecuteContext(ctx)
}

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "paige",
		Short: "Paige makes Claude Code a better partner for the developer using it",
		Long: `Paige makes Claude Code a better partner for the developer using it.

  paige serve     run the coaching server (MCP, WebSocket, GhostPath, dashboard)
  paige version   print the version`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("paige {{.Version}}\n")
	root.AddCommand(
		newVersionCmd(e),
		newServeCmd(e),
		newSeedCmd(e), newHookCmd(e),
		newClaudeCmd(e), newDoctorCmd(e),
		newLearnCmd(e),
		newMemoryCmd(e),
		newSessionCmd(e),
	)
	return root
}

// groupCmd is the command use (short: its help line): it takes no
// arguments of its own and groups the subcommands subs.
func groupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{Use: use, Short: short, Args: cobra.NoArgs}
	c.AddCommand(subs...)
	return c
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the Paige version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(e.stdout, "paige %s\n", Version)
			return err
		},
	}
}

// newLogger builds the process logger: text when w is a terminal, JSON
// otherwise; LOG_FORMAT (text|json) and LOG_LEVEL (debug|info|warn|error)
// override.
func newLogger(w io.Writer, format, level string) *slog.Logger {
	var lv slog.Level
	switch strings.ToLower(level) {
	case "debug":
		lv = slog.LevelDebug
	case "warn", "warning":
		lv = slog.LevelWarn
	case "error":
		lv = slog.LevelError
	default:
		lv = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts))
	case "text":
		return slog.New(slog.NewTextHandler(w, opts))
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}
