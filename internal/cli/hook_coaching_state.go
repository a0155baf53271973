package cli

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/hook"
)

// newHookCoachingStateCmd is `paige hook coaching-state`: a new Claude Code
// process (a new session, /clear, compaction, resume) in a project with an
// active coaching session gets that session's state as context. The
// plugin's one SessionStart command runs it (from paige-hook, or in-process
// in `paige hook session-start`) only when a coaching marker covers the
// session's directory; it stays a command for manual use and older
// settings.
func newHookCoachingStateCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "coaching-state",
		Short: "Claude Code SessionStart hook: print the active coaching session's state as context",
		Long: `Reads Claude Code's SessionStart hook JSON on stdin. When a Paige coaching session is active
for its cwd (DATA_DIR/paige.db, read read-only), prints the session's issue, current phase and
hint level, what Paige expects next and how to finish, which Claude Code adds to the context.
A session idle for longer than PAIGE_COACH_IDLE is reported as over. Prints nothing
otherwise; always exits 0. It removes the coaching markers (DATA_DIR/coaching-active) of
sessions that are no longer active, so session-start stops running it for them.
` + "`paige hook session-start`" + ` and paige-hook already print this when a marker covers cwd.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			coachingState(cmd.Context(), e)
			return nil
		},
	}
}

// coachingState is `paige hook coaching-state` on e.
func coachingState(ctx context.Context, e *env) {
	in, err := readClaudeHookInput(e)
	if err != nil {
		hookError(e, "coaching-state", err)
		return
	}
	cfg, err := e.config()
	if err != nil {
		hookError(e, "coaching-state", err)
		return
	}
	v, err := findProjectCoaching(ctx, cfg, in.Cwd, time.Now())
	if err != nil {
		hookError(e, "coaching-state", err)
		return
	}
	if v.Found && !hook.PluginAlsoRuns(e.getenv, in.Cwd) {
		fmt.Fprint(e.stdout, coachingContext(v, cfg.Learn.CoachIdle, time.Now()))
	}
	if err := store.PruneMarkers(ctx, cfg.DataDir); err != nil {
		hookError(e, "coaching-state", err)
	}
}

// inProcessCoachingState is `paige hook session-start`'s
// [hook.Env.CoachingState]: paige has the coach's database linked, so it
// runs coaching-state in its own process.
func inProcessCoachingState(e *env) func(ctx context.Context, cfg *config.Config, input []byte) string {
	return func(ctx context.Context, _ *config.Config, input []byte) string {
		var out bytes.Buffer
		coachingState(ctx, &env{getenv: e.getenv, stdin: bytes.NewReader(input), stdout: &out, stderr: e.stderr})
		return out.String()
	}
}
