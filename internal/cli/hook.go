package cli

import (
	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/hook"
)

// hookStdinTimeout bounds how long a hook waits for Claude Code's JSON; a
// variable so tests can shorten it.
var hookStdinTimeout = hook.DefaultStdinTimeout

// newHookCmd is the `paige hook` group: one subcommand per Claude Code hook
// event. Hooks never fail Claude Code: they exit 0 and report problems as
// one readable line.
func newHookCmd(e *env) *cobra.Command {
	group := &cobra.Command{
		Use:   "hook",
		Short: "Claude Code hooks (session-start, session-end, pre-tool-use)",
		Args:  cobra.NoArgs,
	}
	group.PersistentFlags().String("seed", "", hook.SeedFlagUsage)
	group.AddCommand(newHookSessionStartCmd(e))
	addClaudeHookCmds(group, e)
	for _, c := range group.Commands() {
		c.RunE = neverPanic(e, c.Name(), c.RunE)
	}
	return group
}

// neverPanic guards a hook command with [hook.Guard]: a panic anywhere
// below (seed, learn, coach store) becomes one stderr line and exit 0, so a
// hook never fails Claude Code.
func neverPanic(e *env, name string, run func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		return hook.Guard(e.stderr, name, func() error { return run(cmd, args) })
	}
}

// newHookSessionStartCmd is `paige hook session-start`, the same hook as
// the paige-hook binary's `session-start` ([hook.SessionStart]).
func newHookSessionStartCmd(e *env) *cobra.Command {
	var o hook.SessionStartOptions
	cmd := &cobra.Command{
		Use:                "session-start",
		Short:              "Claude Code SessionStart hook: print the personal seed as session context",
		Long:               hook.SessionStartHelp,
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f := cmd.Flag("seed"); f != nil {
				o.Seed = f.Value.String()
			}
			hook.SessionStart(cmd.Context(), hookEnv(e), o)
			return nil
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// hookEnv is e as the hooks of internal/hook receive it.
func hookEnv(e *env) hook.Env {
	return hook.Env{Getenv: e.getenv, Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr, StdinTimeout: hookStdinTimeout,
		CoachingState: inProcessCoachingState(e)}
}
