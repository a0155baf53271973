package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/claudecode"
)

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
	run := func(path string) (string, string, int) {
		cmd := exec.Command("/bin/sh", "-c", start.PluginCommand())
		cmd.Env = []string{"PATH=" + path, "HOME=" + home, "DATA_DIR=" + t.TempDir(), "PORT=" + freePort(t),
			"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1"}
		cmd.Stdin = strings.NewReader(`{"session_id":"s-1","cwd":"/tmp","hook_event_name":"SessionStart","source":"startup"}`)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := runBounded(t, cmd)
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	sysPath := "/usr/bin:/bin"
	out, errOut, code := run(only + ":" + sysPath)
	if code != 0 || !strings.Contains(out, "Seed: v") {
		t.Fatalf("only paige on PATH: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	withHook := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	writeFile(t, filepath.Join(withHook, "paige-hook"), "#!/bin/sh\necho \"$@\" > "+marker+"\n")
	if err := os.Chmod(filepath.Join(withHook, "paige-hook"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, code := run(withHook + ":" + only + ":" + sysPath); code != 0 {
		t.Fatalf("with paige-hook: exit %d", code)
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
