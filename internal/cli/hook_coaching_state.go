package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/hook"
)

// newHookCoachingStateCmd is `paige hook coaching-state`, the plugin's
// second SessionStart hook: a new Claude Code process (a new session,
// /clear, compaction, resume) in a project with an active coaching session
// gets that session's state as context. The seed hook (paige-hook) stays
// free of the coach's database; this one reads it, read-only.
func newHookCoachingStateCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "coaching-state",
		Short: "Claude Code SessionStart hook: print the active coaching session's state as context",
		Long: `Reads Claude Code's SessionStart hook JSON on stdin. When a Paige coaching session is active
for its cwd (DATA_DIR/paige.db, read read-only), prints the session's issue, current phase and
hint level, what Paige expects next and how to finish, which Claude Code adds to the context.
A session idle for longer than PAIGE_COACH_IDLE is reported as over. Prints nothing
otherwise; always exits 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := readClaudeHookInput(e)
			if err != nil {
				hookError(e, "coaching-state", err)
				return nil
			}
			cfg, err := e.config()
			if err != nil {
				hookError(e, "coaching-state", err)
				return nil
			}
			v, err := findProjectCoaching(cmd.Context(), cfg, in.Cwd, time.Now())
			if err != nil {
				hookError(e, "coaching-state", err)
				return nil
			}
			if v.Found && !hook.PluginAlsoRuns(e.getenv, in.Cwd) {
				fmt.Fprint(e.stdout, coachingContext(v, cfg.Learn.CoachIdle, time.Now()))
			}
			return nil
		},
	}
}
