package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Hook modes (PAIGE_MODE): when the Claude Code PreToolUse hook enforces
// the read-only rule.
const (
	ModeAuto  = "auto"  // default: while an active coaching session covers the cwd
	ModeCoach = "coach" // always (the coaching session is assumed)
	ModeOff   = "off"   // never
)

// Background modes of the session-end hook (PAIGE_LEARN_QUEUE).
const (
	Detached = "detached" // default: a background process does the work
	Inline   = "inline"   // the hook does it before returning
	Off      = "off"      // PAIGE_LEARN_QUEUE only: queue and do nothing else
)

// GhostPath defaults (the ideate spec's).
const (
	DefaultAgentMaxIterations = 50
	DefaultMaxRetries         = 3
	DefaultRetryBaseDelay     = time.Second
	DefaultRetryMaxDelay      = time.Minute
	DefaultAgentTimeout       = 300 * time.Second
	// DefaultResumeWindow bounds which GhostPath runs resume at start.
	DefaultResumeWindow = time.Hour
)

// ErrBadMode is wrapped by the error [Load] returns for an unknown PAIGE_MODE.
var ErrBadMode = errors.New("PAIGE_MODE must be auto, coach or off")

// Ideate is GhostPath's configuration.
type Ideate struct {
	AgentModel    string        // AGENT_MODEL; default PAIGE_MODEL_OPUS
	MaxIterations int           // AGENT_MAX_ITERATIONS; default 50, at least 1
	MaxRetries    int           // ANTHROPIC_MAX_RETRIES; default 3, 0 means none
	BaseDelay     time.Duration // ANTHROPIC_BASE_DELAY_MS; default 1 s
	MaxDelay      time.Duration // ANTHROPIC_MAX_DELAY_MS; default 60 s
	Timeout       time.Duration // ANTHROPIC_TIMEOUT_SECONDS; default 300 s
	// ResumeWindow (GHOSTPATH_RESUME_WINDOW_MINUTES; default 60, 0 means
	// none): at start, a run the process stopping interrupted resumes only
	// if its last turn was saved at most this long ago.
	ResumeWindow time.Duration
	// CORSOrigins (CORS_ORIGINS: "a,b" or a JSON list) get CORS headers
	// from the GhostPath API and, being set explicitly, pass the origin
	// policy. Empty means the spec's default (the Vite dev server), which
	// only gets CORS headers.
	CORSOrigins []string
}

// Learn is shadow learning's, the seed's and the Claude Code hooks'
// configuration.
type Learn struct {
	LearnModel string // PAIGE_LEARN_MODEL; empty: haiku with a key, else heuristic
	ChatModel  string // PAIGE_CHAT_MODEL; empty: sonnet
	// LearnRoots (PAIGE_LEARN_ROOTS, ':'-separated) are directories the
	// learn API may read transcripts from besides ~/.claude/projects and
	// PROJECT_DIR.
	LearnRoots string
	LearnQueue string // PAIGE_LEARN_QUEUE: detached (default), inline, off
	NoTrail    bool   // PAIGE_LEARN_TRAIL=off (also 0, false, no): learn nothing from the tool trail
	// CoachIdle (PAIGE_COACH_IDLE, a Go duration) is how long a coaching
	// session may go without activity before it ends by itself and the
	// read-only guard lifts.
	CoachIdle time.Duration
	Mode      string // PAIGE_MODE: auto (default), coach, off
	SeedPath  string // PAI_SEED_PATH; default ~/.pai/seed.json ("" without HOME)
}

// Process is what the process itself needs: the binary, secrets and the
// variables the system or Claude Code set.
type Process struct {
	Bin   string // PAIGE_BIN; empty means the running binary
	Token string // PAIGE_TOKEN; empty means a random one per process
	// GOGC is Go's own variable, read here only to know whether the user
	// set it (then `paige serve` keeps it; see docs/configuration.md).
	GOGC       string
	Home       string // HOME
	Path       string // PATH, where git, gh and claude are looked up
	TZ         string // TZ, the first guess of the seed's timezone
	PluginRoot string // CLAUDE_PLUGIN_ROOT, set by Claude Code for a plugin's hooks
}

// Embedding selects the memory store's embedder.
type Embedding struct {
	Model     string // PAIGE_EMBED_MODEL; provider default
	URL       string // PAIGE_EMBED_URL; provider default
	OpenAIKey string // OPENAI_API_KEY
}

// loadSettings reads the capability settings into c, collecting one error
// per malformed variable; each keeps its default.
func (c *Config) loadSettings(env func(string) string) error {
	var errs []error
	c.Ideate = Ideate{
		AgentModel:  or(strings.TrimSpace(env("AGENT_MODEL")), c.ModelOpus),
		CORSOrigins: parseOrigins(env("CORS_ORIGINS")),
	}
	ints := []struct {
		name     string
		def, min int
		dst      *int
	}{
		{"AGENT_MAX_ITERATIONS", DefaultAgentMaxIterations, 1, &c.Ideate.MaxIterations},
		{"ANTHROPIC_MAX_RETRIES", DefaultMaxRetries, 0, &c.Ideate.MaxRetries},
	}
	for _, v := range ints {
		n, err := envInt(env, v.name, v.def, v.min)
		errs = append(errs, err)
		*v.dst = n
	}
	durs := []struct {
		name string
		def  time.Duration
		unit time.Duration
		dst  *time.Duration
	}{
		{"ANTHROPIC_BASE_DELAY_MS", DefaultRetryBaseDelay, time.Millisecond, &c.Ideate.BaseDelay},
		{"ANTHROPIC_MAX_DELAY_MS", DefaultRetryMaxDelay, time.Millisecond, &c.Ideate.MaxDelay},
		{"ANTHROPIC_TIMEOUT_SECONDS", DefaultAgentTimeout, time.Second, &c.Ideate.Timeout},
	}
	for _, v := range durs {
		n, err := envInt(env, v.name, int(v.def/v.unit), 1)
		errs = append(errs, err)
		*v.dst = time.Duration(n) * v.unit
	}
	minutes, werr := envInt(env, "GHOSTPATH_RESUME_WINDOW_MINUTES", int(DefaultResumeWindow/time.Minute), 0)
	errs = append(errs, werr)
	c.Ideate.ResumeWindow = time.Duration(minutes) * time.Minute

	home := env("HOME")
	c.Process = Process{Bin: strings.TrimSpace(env("PAIGE_BIN")), Token: env("PAIGE_TOKEN"), GOGC: env("GOGC"),
		Home: home, Path: env("PATH"), TZ: env("TZ"), PluginRoot: env("CLAUDE_PLUGIN_ROOT")}
	c.Embedding = Embedding{Model: strings.TrimSpace(env("PAIGE_EMBED_MODEL")),
		URL: strings.TrimSpace(env("PAIGE_EMBED_URL")), OpenAIKey: strings.TrimSpace(env("OPENAI_API_KEY"))}
	c.Learn = Learn{
		LearnModel: strings.TrimSpace(env("PAIGE_LEARN_MODEL")),
		ChatModel:  strings.TrimSpace(env("PAIGE_CHAT_MODEL")),
		LearnRoots: env("PAIGE_LEARN_ROOTS"),
		NoTrail:    falsy(env("PAIGE_LEARN_TRAIL")),
		SeedPath:   expandHome(env("PAI_SEED_PATH"), home),
	}
	if c.Learn.SeedPath == "" && home != "" {
		c.Learn.SeedPath = filepath.Join(home, ".pai", "seed.json")
	}
	var err error
	c.Learn.Mode, err = ParseMode(env("PAIGE_MODE"))
	errs = append(errs, err)
	c.Learn.LearnQueue, err = oneOf(env("PAIGE_LEARN_QUEUE"), "PAIGE_LEARN_QUEUE", Detached, Inline, Off)
	errs = append(errs, err)
	c.Learn.CoachIdle, err = positiveDuration(env("PAIGE_COACH_IDLE"), "PAIGE_COACH_IDLE", DefaultCoachIdle)
	errs = append(errs, err)
	return errors.Join(errs...)
}

// ParseMode normalises a PAIGE_MODE value: empty means [ModeAuto]; "on"
// and "coaching" mean [ModeCoach], "none" [ModeOff]. An unknown value is
// an error wrapping [ErrBadMode], with [ModeAuto].
func ParseMode(s string) (string, error) {
	switch m := strings.ToLower(strings.TrimSpace(s)); m {
	case "", ModeAuto:
		return ModeAuto, nil
	case ModeCoach, "coaching", "on":
		return ModeCoach, nil
	case ModeOff, "none":
		return ModeOff, nil
	}
	return ModeAuto, fmt.Errorf("%w, got %q", ErrBadMode, s)
}

// positiveDuration parses v as a positive Go duration named name; empty
// means def. A malformed value is an error, with def.
func positiveDuration(v, name string, def time.Duration) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return def, fmt.Errorf("%s must be a positive duration such as 30m or 12h, got %q", name, v)
	}
	return d, nil
}

// falsy reports an explicit "off", "0", "false" or "no".
func falsy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "0", "false", "no":
		return true
	}
	return false
}

// oneOf returns v lowercased when it is one of allowed, allowed[0] when v
// is empty, and an error naming the variable otherwise.
func oneOf(v, name string, allowed ...string) (string, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return allowed[0], nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return allowed[0], fmt.Errorf("%s must be one of %s, got %q", name, strings.Join(allowed, ", "), v)
}

// envInt reads an integer of at least min, def when unset; a malformed
// value gives def and an error naming the variable.
func envInt(env func(string) string, name string, def, min int) (int, error) {
	v := strings.TrimSpace(env(name))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min {
		return def, fmt.Errorf("%s must be an integer >= %d, got %q", name, min, v)
	}
	return n, nil
}

// parseOrigins parses CORS_ORIGINS: "a,b" or `["a","b"]`.
func parseOrigins(v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	var list []string
	if json.Unmarshal([]byte(v), &list) == nil {
		return list
	}
	for _, o := range strings.Split(v, ",") {
		if o = strings.TrimSpace(o); o != "" {
			list = append(list, o)
		}
	}
	return list
}
