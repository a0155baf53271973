package hook

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPluginAlsoRuns(t *testing.T) {
	t.Parallel()
	home, cwd := t.TempDir(), t.TempDir()
	write := func(path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	settingsRun := env(map[string]string{"HOME": home})
	pluginRun := env(map[string]string{"HOME": home, "CLAUDE_PLUGIN_ROOT": "/p"})
	if PluginAlsoRuns(settingsRun, cwd) {
		t.Error("no settings: the plugin does not run")
	}
	write(filepath.Join(home, ".claude", "settings.json"), `{"enabledPlugins": {"paige@paige": true}}`)
	if !PluginAlsoRuns(settingsRun, cwd) {
		t.Error("enabled for the user: the plugin runs too")
	}
	if PluginAlsoRuns(pluginRun, cwd) {
		t.Error("the plugin's own copy must speak")
	}
	write(filepath.Join(cwd, ".claude", "settings.local.json"), `{"enabledPlugins": {"paige@paige": false}}`)
	if PluginAlsoRuns(settingsRun, cwd) {
		t.Error("disabled locally: the plugin does not run")
	}
	write(filepath.Join(cwd, ".claude", "settings.local.json"), `not json`)
	if !PluginAlsoRuns(settingsRun, cwd) {
		t.Error("an unreadable local file decides nothing")
	}
}
