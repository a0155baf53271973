package config

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLoadSettings(t *testing.T) {
	c, err := Load(env(map[string]string{
		"HOME": "/h", "AGENT_MODEL": " claude-x ", "AGENT_MAX_ITERATIONS": "7", "ANTHROPIC_MAX_RETRIES": "0",
		"ANTHROPIC_BASE_DELAY_MS": "10", "ANTHROPIC_MAX_DELAY_MS": "500", "ANTHROPIC_TIMEOUT_SECONDS": "30", "GHOSTPATH_RESUME_WINDOW_MINUTES": "0",
		"CORS_ORIGINS": `["http://a.test","http://b.test"]`, "PAIGE_LEARN_MODEL": "sonnet", "PAIGE_CHAT_MODEL": "opus",
		"PAIGE_LEARN_ROOTS": "/a:/b", "PAIGE_LEARN_TRAIL": "Off", "PAIGE_LEARN_QUEUE": "Inline", "PAIGE_COACH_IDLE": "90m", "PAIGE_MODE": "on",
		"PAI_SEED_PATH": "~/seed.json", "PAIGE_BIN": "/bin/paige", "PAIGE_TOKEN": "t", "GOGC": "100", "PATH": "/usr/bin",
		"TZ": "Europe/Paris", "CLAUDE_PLUGIN_ROOT": "/p", "PAIGE_EMBED_MODEL": "m", "PAIGE_EMBED_URL": "http://e", "OPENAI_API_KEY": "k",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Ideate: Ideate{AgentModel: "claude-x", MaxIterations: 7, MaxRetries: 0, BaseDelay: 10 * time.Millisecond,
			MaxDelay: 500 * time.Millisecond, Timeout: 30 * time.Second, ResumeWindow: 0, CORSOrigins: []string{"http://a.test", "http://b.test"}},
		Learn: Learn{LearnModel: "sonnet", ChatModel: "opus", LearnRoots: "/a:/b", NoTrail: true, LearnQueue: Inline, CoachIdle: 90 * time.Minute,
			Mode: ModeCoach, SeedPath: "/h/seed.json"},
		Process:   Process{Bin: "/bin/paige", Token: "t", GOGC: "100", Home: "/h", Path: "/usr/bin", TZ: "Europe/Paris", PluginRoot: "/p"},
		Embedding: Embedding{Model: "m", URL: "http://e", OpenAIKey: "k"},
	}
	got := Config{Ideate: c.Ideate, Learn: c.Learn, Process: c.Process, Embedding: c.Embedding}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if c, _ := Load(env(map[string]string{"CORS_ORIGINS": "http://a.test, http://c.test"})); !slices.Equal(c.Ideate.CORSOrigins, []string{"http://a.test", "http://c.test"}) {
		t.Errorf("comma-separated CORS_ORIGINS: %v", c.Ideate.CORSOrigins)
	}
	if c, _ := Load(env(nil)); c.Learn.SeedPath != "" {
		t.Errorf("no HOME, no PAI_SEED_PATH: seed path %q, want none", c.Learn.SeedPath)
	}
}

// TestLoadJoinsErrors: every malformed variable is named at once, and the
// Config is still complete, with the default in place of each.
func TestLoadJoinsErrors(t *testing.T) {
	bad := map[string]string{"HOME": "/h", "PORT": "http", "AGENT_MAX_ITERATIONS": "0", "ANTHROPIC_MAX_RETRIES": "x",
		"ANTHROPIC_TIMEOUT_SECONDS": "-1", "PAIGE_MODE": "sometimes", "PAIGE_LEARN_QUEUE": "later", "PAIGE_COACH_IDLE": "-1h",
		"PAIGE_MCP_SESSION_TIMEOUT": "soon", "PAIGE_ALLOWED_HOSTS": "http://x"}
	c, err := Load(env(bad))
	if err == nil {
		t.Fatal("malformed variables accepted")
	}
	for name := range bad {
		if name != "HOME" && !strings.Contains(err.Error(), name) {
			t.Errorf("error does not name %s: %v", name, err)
		}
	}
	if !errors.Is(err, ErrBadMode) {
		t.Errorf("errors.Is(err, ErrBadMode) = false: %v", err)
	}
	if c.Port != DefaultPort || c.Ideate.MaxIterations != DefaultAgentMaxIterations || c.Ideate.MaxRetries != DefaultMaxRetries ||
		c.Ideate.Timeout != DefaultAgentTimeout || c.Learn.Mode != ModeAuto || c.Learn.LearnQueue != Detached ||
		c.Learn.CoachIdle != DefaultCoachIdle || c.MCPSessionTimeout != DefaultMCPSessionTimeout || c.Learn.SeedPath != "/h/.pai/seed.json" {
		t.Errorf("defaults not kept beside the errors: %+v", c)
	}
}

func TestParseMode(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"", ModeAuto, false}, {"auto", ModeAuto, false}, {"Coach", ModeCoach, false}, {"coaching", ModeCoach, false},
		{"on", ModeCoach, false}, {"off", ModeOff, false}, {"none", ModeOff, false}, {"bogus", ModeAuto, true},
	}
	for _, tt := range tests {
		got, err := ParseMode(tt.in)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("ParseMode(%q) = %q, %v; want %q, err %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestDocsListEveryVariable keeps docs/configuration.md and Load in step:
// the variables Load reads are exactly those the document's tables list
// (the Tests section aside, whose variables only tests read).
func TestDocsListEveryVariable(t *testing.T) {
	read := map[string]bool{}
	if _, err := Load(func(name string) string { read[name] = true; return "" }); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	text, _, _ := strings.Cut(string(doc), "\n## Tests")
	documented := map[string]bool{}
	row := regexp.MustCompile("(?m)^\\| ((?:`[A-Z][A-Z0-9_]*`(?:, )?)+) \\|")
	for _, m := range row.FindAllStringSubmatch(text, -1) {
		for _, name := range regexp.MustCompile("`([A-Z0-9_]+)`").FindAllStringSubmatch(m[1], -1) {
			documented[name[1]] = true
		}
	}
	for name := range read {
		if !documented[name] {
			t.Errorf("Load reads %s, which docs/configuration.md does not list", name)
		}
	}
	for name := range documented {
		if !read[name] {
			t.Errorf("docs/configuration.md lists %s, which Load never reads", name)
		}
	}
}
