package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// PluginSeenFile records, in DATA_DIR, the plugin whose SessionStart hook
// ran last: Claude Code sets CLAUDE_PLUGIN_ROOT for a plugin's hooks, which
// is how `paige doctor` learns of a plugin loaded with --plugin-dir (that
// leaves no trace in any settings file).
const PluginSeenFile = "claude-plugin.json"

// PluginSeen is the content of [PluginSeenFile].
type PluginSeen struct {
	Root string    `json:"root"` // CLAUDE_PLUGIN_ROOT
	At   time.Time `json:"at"`   // when the SessionStart hook last ran from it
}

// WritePluginSeen replaces dataDir/claude-plugin.json atomically, creating
// dataDir (0700) when needed.
func WritePluginSeen(dataDir string, p PluginSeen) error {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return err
	}
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dataDir, PluginSeenFile+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dataDir, PluginSeenFile))
}

// ReadPluginSeen reads dataDir/claude-plugin.json; ok is false when it is
// absent, unreadable or names no plugin root.
func ReadPluginSeen(dataDir string) (p PluginSeen, ok bool) {
	data, err := os.ReadFile(filepath.Join(dataDir, PluginSeenFile))
	if err != nil {
		return p, false
	}
	if json.Unmarshal(data, &p) != nil || p.Root == "" {
		return p, false
	}
	return p, true
}

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
