package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/config"
)

// pluginSeenFile records, in DATA_DIR, the plugin whose SessionStart hook
// ran last: Claude Code sets CLAUDE_PLUGIN_ROOT for a plugin's hooks, which
// is how doctor learns of a plugin loaded with --plugin-dir (that leaves no
// trace in any settings file).
const pluginSeenFile = "claude-plugin.json"

// pluginSeen is the content of [pluginSeenFile].
type pluginSeen struct {
	Root string    `json:"root"` // CLAUDE_PLUGIN_ROOT
	At   time.Time `json:"at"`   // when the SessionStart hook last ran from it
}

// claudeSessionStartChecks runs the SessionStart hook's Claude Code checks:
// it records the plugin the hook runs from, if any, and returns a warning
// when the running server uses another DATA_DIR ("" when all is well).
// It never fails the hook: a problem is one stderr line.
func claudeSessionStartChecks(ctx context.Context, e *env) string {
	if ctx == nil {
		ctx = context.Background()
	}
	cfg, err := e.config()
	if err != nil {
		return ""
	}
	if root := cfg.Process.PluginRoot; root != "" {
		if err := writePluginSeen(cfg, pluginSeen{Root: root, At: time.Now().UTC()}); err != nil {
			fmt.Fprintf(e.stderr, "paige hook session-start: record the plugin: %v\n", err)
		}
	}
	return claudecode.DataDirMismatch(ctx, cfg.Port, cfg.DataDir, dataDirProbeTimeout)
}

// writePluginSeen replaces DATA_DIR/claude-plugin.json atomically.
func writePluginSeen(cfg config.Config, p pluginSeen) error {
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return err
	}
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(cfg.DataDir, pluginSeenFile+".*")
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
	return os.Rename(tmp.Name(), filepath.Join(cfg.DataDir, pluginSeenFile))
}

// readPluginSeen reads DATA_DIR/claude-plugin.json; ok is false when it is
// absent or unreadable.
func readPluginSeen(cfg config.Config) (p pluginSeen, ok bool) {
	data, err := os.ReadFile(filepath.Join(cfg.DataDir, pluginSeenFile))
	if err != nil {
		return p, false
	}
	if json.Unmarshal(data, &p) != nil || p.Root == "" {
		return p, false
	}
	return p, true
}

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
	p, ok := readPluginSeen(cfg)
	if !ok {
		return ""
	}
	if _, err := os.Stat(filepath.Join(p.Root, ".claude-plugin", "plugin.json")); err != nil {
		return ""
	}
	return fmt.Sprintf("plugin loaded from %s (--plugin-dir or a marketplace; last session start %s)", p.Root, p.At.Local().Format("2006-01-02 15:04"))
}
