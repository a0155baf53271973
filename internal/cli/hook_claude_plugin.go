package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/hook"
)

// enabledPaigePlugins returns the "paige@<marketplace>" keys of a settings
// file's enabledPlugins whose value is true (the marketplace install).
func enabledPaigePlugins(settings []byte) []string {
	var s struct {
		EnabledPlugins map[string]any `json:"enabledPlugins"`
	}
	if json.Unmarshal(settings, &s) != nil {
		return nil
	}
	var out []string
	for k, v := range s.EnabledPlugins {
		if on, _ := v.(bool); on && len(k) > len("paige@") && k[:len("paige@")] == "paige@" {
			out = append(out, k)
		}
	}
	return out
}

// pluginFound describes the plugin recorded by the SessionStart hook, or ""
// when none was or its directory is gone.
func pluginFound(cfg config.Config) string {
	p, ok := hook.ReadPluginSeen(cfg.DataDir)
	if !ok {
		return ""
	}
	if _, err := os.Stat(filepath.Join(p.Root, ".claude-plugin", "plugin.json")); err != nil {
		return ""
	}
	return fmt.Sprintf("plugin loaded from %s (--plugin-dir or a marketplace; last session start %s)", p.Root, p.At.Local().Format("2006-01-02 15:04"))
}
