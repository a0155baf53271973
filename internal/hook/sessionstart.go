package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/paige-dev/paige/internal/coach/marker"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/project"
	"github.com/paige-dev/paige/internal/seed"
)

// DefaultStdinTimeout is how long a hook waits for Claude Code's JSON on
// stdin when [Env.StdinTimeout] is zero.
const DefaultStdinTimeout = 2 * time.Second

// DataDirProbeTimeout bounds the SessionStart hook's question to the
// server: the hook must stay fast, and a server that does not answer
// quickly is not checked.
const DataDirProbeTimeout = 500 * time.Millisecond

// SeedFlagUsage is the help text of the hooks' --seed flag.
const SeedFlagUsage = "seed file (default $PAI_SEED_PATH or ~/.pai/seed.json)"

// ErrNoHome is reported when no seed path can be derived.
var ErrNoHome = errors.New("cannot locate the seed: HOME is not set (use --seed PATH or PAI_SEED_PATH)")

// Env is what a hook receives from its process.
type Env struct {
	// Getenv answers the environment over .env (see [config.Lookup]).
	Getenv func(string) string
	// Stdin carries Claude Code's hook JSON; nil means no input.
	Stdin io.Reader
	// Stdout receives the hook's answer, Stderr its problems. Never nil.
	Stdout, Stderr io.Writer
	// StdinTimeout bounds the wait for Stdin. If zero, DefaultStdinTimeout.
	StdinTimeout time.Duration
	// CoachingState runs `paige hook coaching-state` on input, the hook
	// JSON read from Stdin, with the configuration cfg, and returns what it
	// printed (its problems go to Stderr). [SessionStart] calls it only
	// when a coaching marker covers the session's directory; nil never
	// runs it.
	CoachingState func(ctx context.Context, cfg *config.Config, input []byte) string
}

func (e Env) stdinTimeout() time.Duration {
	if e.StdinTimeout > 0 {
		return e.StdinTimeout
	}
	return DefaultStdinTimeout
}

// SeedPath is the seed file a command uses: flag when set, else the
// configuration's (PAI_SEED_PATH or ~/.pai/seed.json), else [ErrNoHome].
func SeedPath(flag string, cfg *config.Config) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if cfg.Learn.SeedPath == "" {
		return "", ErrNoHome
	}
	return cfg.Learn.SeedPath, nil
}

// SessionStartOptions are the flags of the SessionStart hook. A zero value
// prints the full context as plain text and records nothing.
type SessionStartOptions struct {
	Seed          string // --seed; "" means [SeedPath]'s default
	Format        string // --format: "compact" (any case) or the full layout
	JSON          bool   // --json: Claude Code's hookSpecificOutput JSON
	RecordSession bool   // --record-session
	SessionID     string // --session-id: recorded when stdin carries none
}

// AddFlags defines the SessionStart hook's flags except --seed (which the
// `paige hook` group shares with its other hooks) on fs, bound to o.
func (o *SessionStartOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Format, "format", seed.LayoutFull, "context layout: full or compact")
	fs.BoolVar(&o.JSON, "json", false, `print Claude Code's {"hookSpecificOutput":{…}} JSON instead of plain text`)
	fs.BoolVar(&o.RecordSession, "record-session", false, "record this session as state.lastSessionAt/lastSessionId (logged beside the seed, committed as Update: by its next write; skipped when the seed has invalid values)")
	fs.StringVar(&o.SessionID, "session-id", "", "session id to record when stdin carries none")
}

// SessionStartHelp is the long help of the SessionStart hook.
const SessionStartHelp = `Reads Claude Code's SessionStart hook JSON from stdin when present (session_id, cwd,
source, transcript_path; empty or malformed input is ignored) and prints the seed as context:
identity, confirmed learnings, pending proposals and session state, at most 10,000 characters.
When a Paige coaching session is active for cwd (a marker in DATA_DIR/coaching-active), it
then prints what ` + "`paige hook coaching-state`" + ` prints, in the same output (with --json, in the
same additionalContext); otherwise it opens no database and starts no process.
It never writes the seed and starts no git (--record-session appends the session, for a
valid seed, to the log beside it, which the next write of the seed commits; run from
Claude Code's plugin it notes CLAUDE_PLUGIN_ROOT in DATA_DIR/claude-plugin.json for doctor, and
it warns when paige serve uses another DATA_DIR): a seed with invalid
values is presented with every valid value after the line "seed.json has N invalid values; run
` + "`paige seed check`" + `", and a seed that cannot be parsed gives one error line; the file is
left byte for byte as it was. Always exits 0; a problem is printed as one
"PAI session context error: …" line.`

// SessionStartOutput is Claude Code's structured SessionStart hook output (--json).
type SessionStartOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// SessionStart runs the SessionStart hook: it prints the seed as the
// session's context on e.Stdout (one error line when it cannot), followed
// by the coaching state when a coaching session is active for the
// session's directory, and its problems on e.Stderr. It never fails; after
// a panic the error line "PAI session context error: internal error" is
// still printed before the panic goes on to the caller's [Guard].
//
// Whether a coaching session is active is read from the markers of
// [marker] (one directory listing), so a start without one opens no
// database and starts no process; with one, e.CoachingState adds what
// `paige hook coaching-state` prints, as the plugin's second SessionStart
// command used to.
func SessionStart(ctx context.Context, e Env, o SessionStartOptions) {
	text, coaching := seed.ErrorPrefix+"internal error", ""
	defer func() { writeContext(e.Stdout, text, coaching, o.JSON) }()
	in, raw := readSessionStartInput(e)
	cfg, cfgErr := loadConfig(e.Getenv) // a malformed variable elsewhere must not hide the seed
	if PluginAlsoRuns(e.Getenv, in.Cwd) {
		text = "" // installed twice (plugin and settings): the plugin's copy gives this start its seed
		return
	}
	text = seedContext(ctx, e, o, in, cfg, cfgErr)
	if cfgErr == nil && raw != nil && e.CoachingState != nil {
		if _, ok := marker.Covering(cfg.DataDir, in.Cwd); ok {
			coaching = e.CoachingState(ctx, cfg, raw)
		}
	}
}

// seedContext returns the seed as context text, noting its problems on
// e.Stderr, and records the session when o asks for it.
func seedContext(ctx context.Context, e Env, o SessionStartOptions, in Input, cfg *config.Config, cfgErr error) string {
	path, err := SeedPath(o.Seed, cfg)
	if err != nil {
		return seed.ErrorPrefix + err.Error()
	}
	layout := seed.LayoutFull
	if strings.EqualFold(o.Format, seed.LayoutCompact) {
		layout = seed.LayoutCompact
	}
	var proj string
	if in.Cwd != "" {
		proj, _ = project.ID(in.Cwd) // unresolvable: every proposal is listed
	}
	sc, scErr := seed.GenerateSessionContext(path, seed.ContextOptions{Format: layout, Project: proj})
	for _, w := range sc.Warnings {
		fmt.Fprintf(e.Stderr, "paige hook session-start: warning: %s\n", w)
	}
	for _, p := range sc.Problems {
		fmt.Fprintf(e.Stderr, "paige hook session-start: invalid value %s: %s\n", p.Path, p.Reason)
	}
	text := seed.HookText(sc, scErr)
	if cfgErr == nil {
		if w := claudeChecks(ctx, e, cfg); w != "" {
			fmt.Fprintf(e.Stderr, "paige hook session-start: warning: %s\n", w)
			text += "\n\nPaige warning: " + w
		}
	}
	if o.RecordSession && len(sc.Problems) > 0 {
		fmt.Fprintln(e.Stderr, "paige hook session-start: session not recorded: the seed has invalid values and is left untouched")
	}
	if o.RecordSession && scErr == nil && !sc.NeedsSetup && len(sc.Problems) == 0 {
		id := in.SessionID
		if id == "" {
			id = o.SessionID
		}
		// Only a log line: the seed file and its commit wait for the
		// next write, off the path Claude Code waits for.
		if err := seed.RecordSession(path, id, time.Now()); err != nil {
			fmt.Fprintf(e.Stderr, "paige hook session-start: record session: %v\n", err)
		}
	}
	return text
}

// loadConfig is [config.Load] returning a pointer, as the hook passes the
// configuration on.
func loadConfig(getenv func(string) string) (*config.Config, error) {
	cfg, err := config.Load(getenv)
	return &cfg, err
}

// claudeChecks records the plugin the hook runs from, if any, and returns a
// warning when the running server uses another DATA_DIR ("" when all is
// well). A problem is one stderr line.
func claudeChecks(ctx context.Context, e Env, cfg *config.Config) string {
	if ctx == nil {
		ctx = context.Background()
	}
	if root := cfg.Process.PluginRoot; root != "" {
		if err := WritePluginSeen(cfg.DataDir, PluginSeen{Root: root, At: time.Now().UTC()}); err != nil {
			fmt.Fprintf(e.Stderr, "paige hook session-start: record the plugin: %v\n", err)
		}
	}
	return DataDirMismatch(ctx, cfg.Port, cfg.DataDir, DataDirProbeTimeout)
}

// writeContext prints the context: text, then the coaching state when
// there is one, as plain text (each ending in a newline, the bytes the two
// commands printed) or in one hookSpecificOutput whose additionalContext is
// that plain text without its last newline.
func writeContext(w io.Writer, text, coaching string, asJSON bool) {
	if coaching != "" {
		text += "\n" + strings.TrimSuffix(coaching, "\n")
	}
	if !asJSON {
		fmt.Fprintln(w, text)
		return
	}
	var out SessionStartOutput
	out.HookSpecificOutput.HookEventName = "SessionStart"
	out.HookSpecificOutput.AdditionalContext = text
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(out) // nothing useful to do if stdout is gone
}

// readSessionStartInput returns Claude Code's hook input and its bytes, or
// a zero value and nil when stdin is missing, a terminal, empty, malformed
// or silent for the timeout. Problems other than empty input are noted on
// stderr.
func readSessionStartInput(e Env) (Input, []byte) {
	if e.Stdin == nil {
		return Input{}, nil
	}
	if f, ok := e.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return Input{}, nil
	}
	in, raw, err := readInputWithin(e.Stdin, e.stdinTimeout())
	var silent *SilentError
	switch {
	case errors.As(err, &silent):
		fmt.Fprintf(e.Stderr, "paige hook session-start: %v; continuing without it\n", err)
	case err != nil && !errors.Is(err, ErrEmptyInput):
		fmt.Fprintf(e.Stderr, "paige hook session-start: ignoring hook input: %v\n", err)
	}
	if err != nil {
		return in, nil
	}
	return in, raw
}
