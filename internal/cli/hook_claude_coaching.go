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

// coachingVerdict is what the hooks make of the coaching session of a
// directory: whether the read-only guard holds, and when it does not
// although a session is still recorded, why it lifted.
type coachingVerdict struct {
	Enforce bool
	// Coaching is the session found (zero under PAIGE_MODE=coach/off or
	// when none is active).
	Coaching store.ProjectCoaching
	Found    bool
	// Lifted says why the guard no longer holds for a session still
	// marked active (it went idle); "" otherwise.
	Lifted string
}

// findProjectCoaching applies PAIGE_MODE, then looks for the session active
// in cwd and checks it against the idle limit (PAIGE_COACH_IDLE): a session
// idle for longer no longer holds the guard, whatever paige.db still says
// (the server ends it when it next looks; the hook only reads).
func findProjectCoaching(ctx context.Context, cfg config.Config, cwd string, now time.Time) (coachingVerdict, error) {
	switch cfg.Learn.Mode {
	case config.ModeCoach:
		return coachingVerdict{Enforce: true}, nil
	case config.ModeOff:
		return coachingVerdict{}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	c, ok, err := store.FindCoaching(ctx, cfg.DataDir, cwd)
	if err != nil || !ok {
		return coachingVerdict{}, err
	}
	v := coachingVerdict{Coaching: c, Found: true, Enforce: true}
	if idle := c.IdleFor(now); idle > cfg.Learn.CoachIdle {
		v.Enforce = false
		v.Lifted = fmt.Sprintf("Paige: the coaching session %s has been idle for %s (PAIGE_COACH_IDLE is %s), so it is over "+
			"and read-only mode is lifted; paige serve ends it and queues its wrap-up. Start a new one with /paige:coach.",
			sessionLabel(c), roundDuration(idle), cfg.Learn.CoachIdle)
	}
	return v, nil
}

// sessionLabel names a session for a person: its issue, else its id.
func sessionLabel(c store.ProjectCoaching) string {
	s := c.Session
	switch {
	case s.IssueNumber != nil && s.IssueTitle != "":
		return fmt.Sprintf("on #%d %q", *s.IssueNumber, s.IssueTitle)
	case s.IssueNumber != nil:
		return fmt.Sprintf("on #%d", *s.IssueNumber)
	case s.IssueTitle != "":
		return fmt.Sprintf("on %q", s.IssueTitle)
	}
	return s.ID
}

// roundDuration prints d to the minute (to the second under a minute).
func roundDuration(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Minute)
}

// howToFinish is the line every coaching message ends with.
const howToFinish = "To end coaching: /paige:finish in Claude Code, End session in the workbench, or `paige session end` in a terminal."

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
	in, cfg, ok := readHookWithConfig(e, "coaching-state")
	if !ok {
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
