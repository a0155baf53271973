package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/config"
)

// check is one line of `paige doctor`.
type check struct {
	name     string
	ok       bool
	required bool   // a failure makes doctor exit 1
	detail   string // what was found
	fix      string // how to fix it; shown when !ok
}

func newDoctorCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check that Paige and its surroundings are ready, and say how to fix what is not",
		Long: `Checks the paige binary, the configuration, the port, the database, the memory backend,
git, gh, the Claude key, the learn queue, the configured models (through the Models API)
and Claude Code's settings. One line each, ✓ or ✗,
with the fix. Exits 1 only when something required (configuration, DATA_DIR, database,
memory backend) is broken; the rest are advice.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			checks := runDoctor(cmd.Context(), e)
			broken := printChecks(e, checks)
			if broken > 0 {
				return &ExitError{Code: 1, Err: fmt.Errorf("doctor: %d required check(s) failed", broken)}
			}
			return nil
		},
	}
}

// runDoctor runs every check in display order.
func runDoctor(ctx context.Context, e *env) []check {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cfg, cfgErr := e.config()
	checks := []check{checkBinary(cfg), checkConfig(cfg, cfgErr)}
	if cfgErr != nil {
		return checks // nothing else can be located without a configuration
	}
	checks = append(checks,
		checkPort(ctx, cfg),
		checkDataDirAgreement(ctx, cfg),
		checkDataDir(cfg),
		checkDatabase(ctx, cfg),
		checkMemory(ctx, cfg),
		checkProgram(ctx, cfg, "git", false, "install git (the seed keeps its history in git; without it, plain files)"),
		checkProgram(ctx, cfg, "gh", false, "install the GitHub CLI and run 'gh auth login' (issue context for coaching)"),
		checkKey(cfg),
		checkLearnQueue(cfg),
		checkCoachingSession(ctx, cfg),
	)
	checks = append(checks, checkModels(ctx, cfg)...)
	return append(checks, checkClaudeSettings(e, cfg)...)
}

// printChecks writes one line per check and a summary; it returns the number
// of failed required checks.
func printChecks(e *env, checks []check) int {
	width := 0
	for _, c := range checks {
		width = max(width, len(c.name))
	}
	broken, advice := 0, 0
	for _, c := range checks {
		mark := "✓"
		if !c.ok {
			mark = "✗"
			if c.required {
				broken++
			} else {
				advice++
			}
		}
		fmt.Fprintf(e.stdout, "%s %-*s  %s\n", mark, width, c.name, c.detail)
		if !c.ok && c.fix != "" {
			fmt.Fprintf(e.stdout, "  %-*s  fix: %s\n", width, "", c.fix)
		}
	}
	switch {
	case broken > 0:
		fmt.Fprintf(e.stdout, "\n%d required check(s) failed, %d suggestion(s).\n", broken, advice)
	case advice > 0:
		fmt.Fprintf(e.stdout, "\nPaige can run; %d suggestion(s) above.\n", advice)
	default:
		fmt.Fprintln(e.stdout, "\nEverything is ready.")
	}
	return broken
}

func checkBinary(cfg config.Config) check {
	c := check{name: "binary", ok: true}
	exe, err := os.Executable()
	if err != nil {
		exe = "unknown path"
	}
	c.detail = fmt.Sprintf("paige %s at %s", Version, exe)
	if p := lookPath("paige", cfg.Process.Path); p == "" {
		c.ok = false
		c.detail += "; no paige on PATH"
		c.fix = "put paige on PATH (make build, then copy bin/paige to ~/.local/bin or /usr/local/bin); the plugin's hooks run 'paige'"
	} else {
		c.detail += "; PATH has " + p
	}
	if p := lookPath(claudecode.HookBinaryName, cfg.Process.Path); p == "" {
		c.ok = false
		c.detail += "; no " + claudecode.HookBinaryName + " on PATH"
		c.fix = joinFix(c.fix, "put paige-hook beside paige on PATH (make build builds bin/paige-hook; go install ./cmd/...): the plugin's SessionStart hook runs 'paige-hook'")
	} else {
		c.detail += " and " + p
	}
	return c
}

// joinFix appends fix to an earlier one.
func joinFix(old, fix string) string {
	if old == "" {
		return fix
	}
	return old + "; " + fix
}

func checkConfig(cfg config.Config, loadErr error) check {
	c := check{name: "config", required: true}
	if loadErr != nil {
		c.detail, c.fix = loadErr.Error(), "fix the variable in the environment or in .env"
		return c
	}
	if err := cfg.ValidateServe(); err != nil {
		c.detail = err.Error() + " (needed by paige serve)"
		c.fix = "export PROJECT_DIR=/path/to/project and ANTHROPIC_API_KEY=… (or PAIGE_OFFLINE=1), or put them in .env"
		return c
	}
	c.ok = true
	c.detail = fmt.Sprintf("PROJECT_DIR=%s, DATA_DIR=%s, %s", cfg.ProjectDir, cfg.DataDir, cfg.Addr())
	return c
}

func checkKey(cfg config.Config) check {
	c := check{name: "claude key"}
	switch {
	case cfg.AnthropicAPIKey != "" && !strings.HasPrefix(cfg.AnthropicAPIKey, "sk-ant-"):
		c.detail = "ANTHROPIC_API_KEY is set but does not look like an Anthropic key (sk-ant-…)"
		c.fix = "copy the key from console.anthropic.com → API keys"
	case cfg.AnthropicAPIKey != "":
		c.ok, c.detail = true, "ANTHROPIC_API_KEY set (…"+last4(cfg.AnthropicAPIKey)+")"
	case cfg.Offline:
		c.ok, c.detail = true, "PAIGE_OFFLINE=1: model features answer \"no model configured\""
	default:
		c.detail = "ANTHROPIC_API_KEY is not set"
		c.fix = "export ANTHROPIC_API_KEY=sk-ant-… (or PAIGE_OFFLINE=1 to run without Claude)"
	}
	return c
}

func last4(s string) string {
	if len(s) <= 4 {
		return ""
	}
	return s[len(s)-4:]
}

// lookPath finds an executable name in the directories of pathEnv.
func lookPath(name, pathEnv string) string {
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}
