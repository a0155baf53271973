// Command paige-hook is the small binary Claude Code's plugin runs for the
// SessionStart hook: `paige-hook session-start [flags]` behaves exactly
// like `paige hook session-start [flags]` (same flags, output, exit code and
// seed side effects; see [github.com/paige-dev/paige/internal/hook]) but
// links only what that hook needs, so the process Claude Code starts for
// every session costs about what a hello-world Go binary does instead of
// the whole of paige (docs/performance.md).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/paige-dev/paige/internal/hook"
)

func main() {
	// SIGINT and SIGTERM do not stop the hook: it finishes and prints the
	// context, as under paige's signal.NotifyContext. The one process it
	// may start, `paige hook coaching-state` when a coaching session is
	// active, installs its own handlers.
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	os.Exit(hook.Run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
}
