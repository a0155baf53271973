package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/coach"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/hook"
)

// newSessionCmd is `paige session show|end`: the coaching session of a
// project, seen and ended from a terminal, with or without paige serve.
func newSessionCmd(e *env) *cobra.Command {
	var dir string
	var asJSON bool
	show := &cobra.Command{
		Use:   "show",
		Short: "Show the active coaching session: issue, phase, hint level, age, idle time",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return sessionShow(cmd.Context(), e, dir, asJSON)
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print the session as JSON")
	end := &cobra.Command{
		Use:   "end",
		Short: "End the active coaching session now; its wrap-up runs when a model is configured",
		Long: `Ends the coaching session active in the project at once, which lifts the read-only guard.
With paige serve running, it asks the server (paige_end_session), which runs the wrap-up
right away when a model is configured. Without the server, it ends the session in
DATA_DIR/paige.db; the wrap-up stays pending and the next paige serve with a model runs it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return sessionEnd(cmd.Context(), e, dir)
		},
	}
	c := groupCmd("session", "Show or end the coaching session of this project", show, end)
	c.PersistentFlags().StringVar(&dir, "dir", "", "project directory (default: the current directory)")
	return c
}

// projectCoaching loads the configuration and the session active in dir
// (the current directory when empty).
func projectCoaching(ctx context.Context, e *env, dir string) (config.Config, coachingVerdict, string, error) {
	cfg, err := e.config()
	if err != nil {
		return cfg, coachingVerdict{}, "", &ExitError{Code: 1, Err: err}
	}
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return cfg, coachingVerdict{}, "", &ExitError{Code: 1, Err: err}
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return cfg, coachingVerdict{}, "", &ExitError{Code: 1, Err: err}
	}
	cfg.Learn.Mode = config.ModeAuto // the database, whatever the hooks are told
	v, err := findProjectCoaching(ctx, cfg, dir, time.Now())
	if err != nil {
		return cfg, v, dir, &ExitError{Code: 1, Err: fmt.Errorf("read %s: %w", filepath.Join(cfg.DataDir, store.FileName), err)}
	}
	return cfg, v, dir, nil
}

// sessionJSON is `paige session show --json`.
type sessionJSON struct {
	Session      coach.Session `json:"session"`
	LastActivity time.Time     `json:"lastActivity"`
	Idle         string        `json:"idle"`
	IdleLimit    string        `json:"idleLimit"`
	Expired      bool          `json:"expired"`
	Phase        *coach.Phase  `json:"phase"`
	Phases       int           `json:"phases"`
	Completed    int           `json:"completed"`
}

func sessionShow(ctx context.Context, e *env, dir string, asJSON bool) error {
	cfg, v, dir, err := projectCoaching(ctx, e, dir)
	if err != nil {
		return err
	}
	if asJSON {
		var out *sessionJSON
		if v.Found {
			c := v.Coaching
			out = &sessionJSON{Session: c.Session, LastActivity: c.LastActivity, Idle: roundDuration(c.IdleFor(time.Now())).String(),
				IdleLimit: cfg.Learn.CoachIdle.String(), Expired: !v.Enforce, Phase: c.Phase, Phases: c.Phases, Completed: c.Completed}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if !v.Found {
		fmt.Fprintf(e.stdout, "No coaching session is active in %s.\n", dir)
		return nil
	}
	fmt.Fprint(e.stdout, coachingContext(v, cfg.Learn.CoachIdle, time.Now()))
	return nil
}

func sessionEnd(ctx context.Context, e *env, dir string) error {
	cfg, v, dir, err := projectCoaching(ctx, e, dir)
	if err != nil {
		return err
	}
	if !v.Found {
		fmt.Fprintf(e.stdout, "No coaching session is active in %s; nothing to end.\n", dir)
		return nil
	}
	id := v.Coaching.Session.ID
	if ownServer(ctx, cfg) && latestActive(ctx, cfg) == id {
		ctx, cancel := context.WithTimeout(ctx, endCallTimeout)
		defer cancel()
		res, err := callEndSession(ctx, cfg.Port, "(ended with `paige session end`; no conversation transcript)")
		if err == nil && sessionEnded(ctx, cfg, id) {
			fmt.Fprintf(e.stdout, "Coaching session %s ended; read-only mode is lifted.\npaige serve: %s\n", sessionLabel(v.Coaching), res)
			return nil
		}
		// Another server (other DATA_DIR or project) or a broken call:
		// end it in the database, which is what the guard reads.
	}
	db, err := store.Open(ctx, cfg.DataDir)
	if err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	defer db.Close()
	if _, err := db.SetSessionStatus(ctx, id, coach.SessionCompleted); err != nil {
		return &ExitError{Code: 1, Err: fmt.Errorf("end session %s: %w", id, err)}
	}
	fmt.Fprintf(e.stdout, "Coaching session %s ended; read-only mode is lifted.\n"+
		"Its wrap-up (knowledge gaps, katas, Dreyfus stages, memories) is queued: the next paige serve with a model runs it.\n",
		sessionLabel(v.Coaching))
	return nil
}

// ownServer reports whether a Paige server on PORT serves this DATA_DIR
// (GET /health's dataDirId): only that one's active session is this one.
func ownServer(ctx context.Context, cfg config.Config) bool {
	id, running := hook.ServerDataDir(ctx, cfg.Port, time.Second)
	return running && id == hook.DataDirID(cfg.DataDir)
}

// endCallTimeout bounds paige_end_session: the session ends at once, the
// wrap-up after it takes three model calls.
const endCallTimeout = 5 * time.Minute

// latestActive is the id of the session a server on this DATA_DIR calls
// active (the latest started), or "".
func latestActive(ctx context.Context, cfg config.Config) string {
	c, ok, err := store.FindCoaching(ctx, cfg.DataDir, "")
	if err != nil || !ok {
		return ""
	}
	return c.Session.ID
}

// sessionEnded reports whether the session with id is no longer active.
func sessionEnded(ctx context.Context, cfg config.Config, id string) bool {
	c, ok, err := store.FindCoaching(ctx, cfg.DataDir, "")
	return err == nil && (!ok || c.Session.ID != id)
}

// coachingContext is what a new Claude Code process (SessionStart) and
// `paige session show` say about the project's coaching session: the
// issue, the current phase and its hint level, what Paige expects next and
// how to finish.
func coachingContext(v coachingVerdict, limit time.Duration, now time.Time) string {
	c := v.Coaching
	var b strings.Builder
	if v.Lifted != "" {
		b.WriteString(v.Lifted + "\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Paige coaching session active in this project: %s (id %s), started %s, last activity %s ago (it ends by itself after %s idle).\n",
		sessionLabel(c), c.Session.ID, c.Session.StartedAt.Local().Format("2006-01-02 15:04"), roundDuration(c.IdleFor(now)), limit)
	switch {
	case c.Phases == 0:
		b.WriteString("No plan yet. Next: read the code (read-only), write a plan and call paige_run_coaching_pipeline, as /paige:coach does.\n")
	case c.Phase == nil:
		fmt.Fprintf(&b, "All %d phases are complete. Next: review the work with the developer, then finish the session.\n", c.Phases)
	default:
		p := c.Phase
		fmt.Fprintf(&b, "Current phase %d of %d: %s (%s, hint level %s).\n", p.Number, c.Phases, p.Title, p.Status, p.HintLevel)
		if len(p.ExpectedFiles) > 0 {
			fmt.Fprintf(&b, "Files this phase expects: %s.\n", strings.Join(p.ExpectedFiles, ", "))
		}
		b.WriteString("Next: the developer writes the code of this phase; coach them (/paige:hint for one more hint at this " +
			"hint level, /paige:review to check their work and move to the next phase with paige_update_phase). " +
			"paige_get_session_state gives the plan, hints and progress.\n")
	}
	b.WriteString("Claude Code is read-only in this project while the session lasts: Write and Edit are denied, and Bash runs only known read-only commands.\n")
	b.WriteString(howToFinish + "\n")
	return b.String()
}
