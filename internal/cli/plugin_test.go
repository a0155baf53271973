package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/claudecode"
)

// pluginDir is the repository's Claude Code plugin.
var pluginDir = filepath.Join("..", "..", "plugin")

func readPluginJSON(tb testing.TB, rel string, v any) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(pluginDir, rel))
	if err != nil {
		tb.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		tb.Fatalf("%s: %v", rel, err)
	}
}

func TestPluginManifest(t *testing.T) {
	var m struct {
		Name        string            `json:"name"`
		Version     string            `json:"version"`
		Description string            `json:"description"`
		Author      map[string]string `json:"author"`
		Homepage    string            `json:"homepage"`
		Repository  string            `json:"repository"`
		Keywords    []string          `json:"keywords"`
	}
	readPluginJSON(t, ".claude-plugin/plugin.json", &m)
	if !regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`).MatchString(m.Name) {
		t.Errorf("name %q is not kebab-case", m.Name)
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(m.Version) || m.Description == "" {
		t.Errorf("version %q / description %q", m.Version, m.Description)
	}
}

func TestPluginMCP(t *testing.T) {
	type server struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	var m struct {
		MCPServers map[string]server `json:"mcpServers"`
	}
	readPluginJSON(t, ".mcp.json", &m)
	want := map[string]server{claudecode.MCPServerName: {Type: "http", URL: "http://127.0.0.1:${PORT:-3000}/mcp"}}
	if diff := cmp.Diff(want, m.MCPServers); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

type pluginHook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

type pluginGroup struct {
	Matcher string       `json:"matcher,omitempty"`
	Hooks   []pluginHook `json:"hooks"`
}

// fallbackRE matches a Small hook's plugin command: paige-hook when it is
// on PATH, else paige hook, each by exec (the shell does not stay).
var fallbackRE = regexp.MustCompile(`^if command -v paige-hook >/dev/null 2>&1; then exec paige-hook (.+); else exec (paige hook .+); fi$`)

// TestPluginHooks checks hooks.json against claudecode.Hooks (the same hooks
// `paige claude install` writes), that SessionStart runs one command, the
// paige-hook one, and that every command exists in the CLI.
func TestPluginHooks(t *testing.T) {
	var f struct {
		Description string                   `json:"description"`
		Hooks       map[string][]pluginGroup `json:"hooks"`
	}
	readPluginJSON(t, "hooks/hooks.json", &f)
	want := map[string][]pluginGroup{}
	for _, h := range claudecode.Hooks {
		want[h.Event] = append(want[h.Event], pluginGroup{Matcher: h.Matcher,
			Hooks: []pluginHook{{Type: "command", Command: h.PluginCommand(), Timeout: h.Timeout}}})
	}
	if diff := cmp.Diff(want, f.Hooks); diff != "" {
		t.Errorf("hooks.json differs from claudecode.Hooks (-want +got):\n%s", diff)
	}
	// Claude Code waits for every SessionStart command: there is one, the
	// small binary's (which adds the coaching state itself).
	if start := f.Hooks["SessionStart"]; len(start) != 1 || len(start[0].Hooks) != 1 ||
		!strings.HasPrefix(fallbackRE.ReplaceAllString(start[0].Hooks[0].Command, "$1"), "session-start ") {
		t.Errorf("SessionStart runs %+v, want one paige-hook session-start command", start)
	}
	root := newRootCmd(&env{getenv: func(string) string { return "" }})
	for event, groups := range f.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				command := h.Command
				if m := fallbackRE.FindStringSubmatch(command); m != nil { // paige-hook, else paige hook: the same hook and flags
					if "paige hook "+m[1] != m[2] {
						t.Errorf("%s: %q falls back to another command", event, command)
					}
					command = m[2]
				}
				words := strings.Fields(command)
				if len(words) < 2 || words[0] != "paige" {
					t.Errorf("%s: command %q does not run paige", event, h.Command)
					continue
				}
				var sub, flags []string
				for _, w := range words[1:] {
					if strings.HasPrefix(w, "-") {
						flags = append(flags, w)
					} else {
						sub = append(sub, w)
					}
				}
				cmd, rest, err := root.Find(sub)
				if err != nil || len(rest) != 0 || !strings.HasPrefix(command, cmd.CommandPath()) {
					t.Errorf("%s: %q is not a paige command (found %q, rest %v, err %v)", event, h.Command, cmd.CommandPath(), rest, err)
					continue
				}
				if err := cmd.ParseFlags(flags); err != nil {
					t.Errorf("%s: %q: %v", event, h.Command, err)
				}
			}
		}
	}
}

// TestPluginSessionStartWithoutPaigeHook runs the plugin's SessionStart
// command with a shell, as Claude Code does, where only paige is on PATH:
// it falls back to `paige hook session-start` (a bare paige-hook exited
// 127) and prints the seed; with a paige-hook on PATH, that one runs.
func TestPluginSessionStartWithoutPaigeHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	var start claudecode.HookSpec
	for _, h := range claudecode.Hooks {
		if h.Small {
			start = h
		}
	}
	home, _ := testSeed(t, "valid-seed.json")
	only := t.TempDir()
	if err := os.Symlink(builtPaige(t), filepath.Join(only, "paige")); err != nil {
		t.Fatal(err)
	}
	run := func(path string) procResult {
		env := []string{"PATH=" + path, "HOME=" + home, "DATA_DIR=" + t.TempDir(), "PORT=" + freePort(t)}
		in := `{"session_id":"s-1","cwd":"/tmp","hook_event_name":"SessionStart","source":"startup"}`
		return runHookProcess(t, "/bin/sh", t.TempDir(), env, in, "", "-c", start.PluginCommand())
	}
	sysPath := "/usr/bin:/bin"
	if r := run(only + ":" + sysPath); r.code != 0 || !strings.Contains(r.stdout, "Seed: v") {
		t.Fatalf("only paige on PATH: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	withHook := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	writeFile(t, filepath.Join(withHook, "paige-hook"), "#!/bin/sh\necho \"$@\" > "+marker+"\n")
	if err := os.Chmod(filepath.Join(withHook, "paige-hook"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := run(withHook + ":" + only + ":" + sysPath); r.code != 0 {
		t.Fatalf("with paige-hook: exit %d", r.code)
	}
	if got := strings.TrimSpace(string(mustRead(t, marker))); got != "session-start --record-session" {
		t.Errorf("paige-hook ran with %q", got)
	}
}

// TestSeedOnceWithPluginAndSettings: with the plugin enabled and the
// settings hooks installed too, the settings copies of the SessionStart
// hooks print nothing, so the seed and the coaching state reach the
// session once (from the plugin's copies).
func TestSeedOnceWithPluginAndSettings(t *testing.T) {
	home, _ := testSeed(t, "valid-seed.json")
	data, project := t.TempDir(), t.TempDir()
	coachedProject(t, data, project)
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"enabledPlugins": {"paige@paige": true}}`)
	in := hookInputJSON(t, map[string]any{"session_id": "s-1", "cwd": project, "hook_event_name": "SessionStart", "source": "startup"})
	settingsVars := map[string]string{"HOME": home, "DATA_DIR": data, "PORT": freePort(t)}
	pluginVars := map[string]string{"HOME": home, "DATA_DIR": data, "PORT": settingsVars["PORT"], "CLAUDE_PLUGIN_ROOT": "/plugin"}
	for _, sub := range []string{"session-start", "coaching-state"} {
		if out, _, _ := runCLI(t, settingsVars, in, "hook", sub); strings.TrimSpace(out) != "" {
			t.Errorf("settings copy of %s printed %q", sub, out)
		}
		if out, _, _ := runCLI(t, pluginVars, in, "hook", sub); strings.TrimSpace(out) == "" {
			t.Errorf("the plugin's copy of %s printed nothing", sub)
		}
	}
}
