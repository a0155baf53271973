package hook

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/paige-dev/paige/internal/config"
)

// Run is the command line of the paige-hook binary: args (without the
// program name) start with the hook's name, then its flags, as after
// `paige hook`. It returns the process's exit code: 0 whenever a hook ran
// (hooks never fail Claude Code), 0 for --help, 1 for an unknown hook or a
// malformed flag (one "paige-hook: …" line on stderr). getenv is the
// process environment; .env in the working directory fills what it leaves
// empty, as for paige.
func Run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if args[0] != "session-start" {
		fmt.Fprintf(stderr, "paige-hook: unknown hook %q: paige-hook runs session-start; the other hooks are `paige hook %s`\n", args[0], args[0])
		return 1
	}
	var o SessionStartOptions
	fs := pflag.NewFlagSet("session-start", pflag.ContinueOnError)
	fs.ParseErrorsAllowlist.UnknownFlags = true // like `paige hook session-start`: a newer plugin's flag is ignored
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.Seed, "seed", "", SeedFlagUsage)
	o.AddFlags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprintf(stdout, "%s\n\nUsage:\n  paige-hook session-start [flags]\n\nFlags:\n%s", SessionStartHelp, fs.FlagUsages())
			return 0
		}
		fmt.Fprintf(stderr, "paige-hook: %v\n", err)
		return 1
	}
	e := Env{Getenv: config.Lookup(getenv, ".env"), Stdin: stdin, Stdout: stdout, Stderr: stderr,
		CoachingState: PaigeCoachingState(stderr)}
	_ = Guard(stderr, "session-start", func() error {
		SessionStart(ctx, e, o)
		return nil
	})
	return 0
}

const usage = `paige-hook runs Paige's Claude Code SessionStart hook in a small process.

Usage:
  paige-hook session-start [--seed PATH] [--format full|compact] [--json] [--record-session] [--session-id ID]

It behaves exactly like ` + "`paige hook session-start`" + `; see ` + "`paige-hook session-start --help`" + `.
`
