package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// PluginAlsoRuns reports whether a hook that runs from Claude Code's
// settings (written by `paige claude install`; CLAUDE_PLUGIN_ROOT unset)
// has a twin from the Paige plugin: the plugin is enabled
// (enabledPlugins["paige@…"] true) in the user's, the project's or the
// local settings of cwd, the later file deciding. The settings copy then
// prints nothing, so the seed and the coaching state reach the session
// once. Unreadable settings count as no plugin.
func PluginAlsoRuns(getenv func(string) string, cwd string) bool {
	if getenv("CLAUDE_PLUGIN_ROOT") != "" {
		return false // this is the plugin's copy
	}
	files := []string{}
	if home := getenv("HOME"); home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	if cwd != "" {
		files = append(files, filepath.Join(cwd, ".claude", "settings.json"), filepath.Join(cwd, ".claude", "settings.local.json"))
	}
	enabled := false
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s struct {
			EnabledPlugins map[string]any `json:"enabledPlugins"`
		}
		if json.Unmarshal(data, &s) != nil {
			continue
		}
		for k, v := range s.EnabledPlugins {
			if on, ok := v.(bool); ok && strings.HasPrefix(k, "paige@") {
				enabled = on
			}
		}
	}
	return enabled
}
