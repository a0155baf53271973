package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/seed"
)

// hookStdinTimeout bounds how long a hook waits for Claude Code's JSON; a
// variable so tests can shorten it.
var hookStdinTimeout = 2 * time.Second

// newHookCmd is the `paige hook` group: one subcommand per Claude Code hook
// event. Hooks never fail Claude Code: they exit 0 and report problems as
// one readable line.
func newHookCmd(e *env) *cobra.Command {
	hook := &cobra.Command{
		Use:   "hook",
		Short: "Claude Code hooks (session-start, session-end, pre-tool-use)",
		Args:  cobra.NoArgs,
	}
	hook.PersistentFlags().String("seed", "", "seed file (default $PAI_SEED_PATH or ~/.pai/seed.json)")
	hook.AddCommand(newHookSessionStartCmd(e))
	addClaudeHookCmds(hook, e)
	for _, c := range hook.Commands() {
		c.RunE = neverPanic(e, c.Name(), c.RunE)
	}
	return hook
}

// neverPanic is the one recover of Paige's hooks, at the command's edge: a
// panic anywhere below (seed, learn, coach store) becomes one stderr line
// and exit 0, so a hook never fails Claude Code. Library code returns
// errors and does not recover.
func neverPanic(e *env, name string, run func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) (err error) {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(e.stderr, "paige hook %s: internal error: %v\n", name, r)
				err = nil
			}
		}()
		return run(cmd, args)
	}
}

type sessionStartFlags struct {
	format        string
	asJSON        bool
	recordSession bool
	sessionID     string
}

func newHookSessionStartCmd(e *env) *cobra.Command {
	var f sessionStartFlags
	cmd := &cobra.Command{
		Use:   "session-start",
		Short: "Claude Code SessionStart hook: print the personal seed as session context",
		Long: `Reads Claude Code's SessionStart hook JSON from stdin when present (session_id, cwd,
source, transcript_path; empty or malformed input is ignored) and prints the seed as context:
identity, confirmed learnings, pending proposals and session state, at most 10,000 characters.
It never writes the seed (only --record-session does, and not to an invalid seed; run from
Claude Code's plugin it notes CLAUDE_PLUGIN_ROOT in DATA_DIR/claude-plugin.json for doctor, and
it warns when paige serve uses another DATA_DIR): a seed with invalid
values is presented with every valid value after the line "seed.json has N invalid values; run
` + "`paige seed check`" + `", and a seed that cannot be parsed gives one error line; the file is
left byte for byte as it was. Always exits 0; a problem is printed as one
"PAI session context error: …" line.`,
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(cmd *cobra.Command, _ []string) error {
			runSessionStart(cmd, e, f)
			return nil
		},
	}
	cmd.Flags().StringVar(&f.format, "format", seed.LayoutFull, "context layout: full or compact")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, `print Claude Code's {"hookSpecificOutput":{…}} JSON instead of plain text`)
	cmd.Flags().BoolVar(&f.recordSession, "record-session", false, "record this session in state.lastSessionAt/lastSessionId (commit Update:; skipped when the seed has invalid values)")
	cmd.Flags().StringVar(&f.sessionID, "session-id", "", "session id to record when stdin carries none")
	return cmd
}

// sessionStartOutput is Claude Code's structured SessionStart hook output.
type sessionStartOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// runSessionStart never fails: every problem ends up as one line of text
// (after a panic too, which [neverPanic] then recovers).
func runSessionStart(cmd *cobra.Command, e *env, f sessionStartFlags) {
	text := seed.ErrorPrefix + "internal error"
	defer func() { writeHookText(e, text, f.asJSON) }()
	in := readHookStdin(e)
	path, err := seedPath(cmd, e)
	if err != nil {
		text = seed.ErrorPrefix + err.Error()
		return
	}
	opts := seedOptions(e)
	layout := seed.LayoutFull
	if strings.EqualFold(f.format, seed.LayoutCompact) {
		layout = seed.LayoutCompact
	}
	sc, scErr := seed.GenerateSessionContext(path, seed.ContextOptions{Format: layout})
	for _, w := range sc.Warnings {
		fmt.Fprintf(e.stderr, "paige hook session-start: warning: %s\n", w)
	}
	for _, p := range sc.Problems {
		fmt.Fprintf(e.stderr, "paige hook session-start: invalid value %s: %s\n", p.Path, p.Reason)
	}
	text = seed.HookText(sc, scErr)
	if w := claudeSessionStartChecks(cmd.Context(), e); w != "" {
		fmt.Fprintf(e.stderr, "paige hook session-start: warning: %s\n", w)
		text += "\n\nPaige warning: " + w
	}
	if f.recordSession && len(sc.Problems) > 0 {
		fmt.Fprintln(e.stderr, "paige hook session-start: session not recorded: the seed has invalid values and is left untouched")
	}
	if f.recordSession && scErr == nil && !sc.NeedsSetup && len(sc.Problems) == 0 {
		id := in.SessionID
		if id == "" {
			id = f.sessionID
		}
		if err := recordSession(path, id, opts); err != nil {
			fmt.Fprintf(e.stderr, "paige hook session-start: record session: %v\n", err)
		}
	}
}

func writeHookText(e *env, text string, asJSON bool) {
	if !asJSON {
		fmt.Fprintln(e.stdout, text)
		return
	}
	var out sessionStartOutput
	out.HookSpecificOutput.HookEventName = "SessionStart"
	out.HookSpecificOutput.AdditionalContext = text
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(out) // nothing useful to do if stdout is gone
}

// recordSession stores the session start in the seed's state.
func recordSession(path, id string, opts *seed.Options) error {
	_, _, err := seed.Update(path, opts, seed.CategoryUpdate, func(s *seed.Seed) (string, error) {
		s.State.LastSessionAt = seed.FormatTime(time.Now())
		s.State.LastSessionID = id
		if id == "" {
			return "session started", nil
		}
		return "session " + id + " started", nil
	})
	return err
}

// readHookStdin returns Claude Code's hook input, or a zero value when stdin
// is a terminal, empty, malformed or silent for hookStdinTimeout. Problems
// other than empty input are noted on stderr.
func readHookStdin(e *env) claudecode.HookInput {
	if e.stdin == nil {
		return claudecode.HookInput{}
	}
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return claudecode.HookInput{}
	}
	type result struct {
		in  claudecode.HookInput
		err error
	}
	done := make(chan result, 1)
	go func(r io.Reader) {
		in, err := claudecode.ReadHookInput(r)
		done <- result{in, err}
	}(e.stdin)
	select {
	case r := <-done:
		if r.err != nil && r.err != claudecode.ErrEmptyInput {
			fmt.Fprintf(e.stderr, "paige hook session-start: ignoring hook input: %v\n", r.err)
		}
		return r.in
	case <-time.After(hookStdinTimeout):
		fmt.Fprintf(e.stderr, "paige hook session-start: no hook input within %v; continuing without it\n", hookStdinTimeout)
		return claudecode.HookInput{}
	}
}
