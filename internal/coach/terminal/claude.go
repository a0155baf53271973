package terminal

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/paige-dev/paige/internal/claudecode"
	paigeplugin "github.com/paige-dev/paige/plugin"
)

// ClaudeKit makes `claude` started in a workbench terminal use Paige. It
// writes, once per server URL, into a private temporary directory:
//
//	plugin/.claude-plugin/plugin.json   a Claude Code plugin named paige
//	plugin/.mcp.json                    MCP server paige → <server>/mcp
//	plugin/hooks/hooks.json             SessionStart, UserPromptSubmit, SessionEnd, PreToolUse → <Bin> hook …
//	plugin/skills/, output-styles/      the coaching skills (/paige:coach …) and style, from the repository's plugin
//	bin/claude                          wrapper: the real claude --plugin-dir plugin "$@"
//
// and the terminal puts bin/ first on the shell's PATH. The wrapper drops
// its own directory from PATH, finds the real claude, and says how to
// install Claude Code when there is none. The PreToolUse hook reads the
// coaching database in DATA_DIR (set in the shell), so coaching mode is on
// exactly while a session is active. A ClaudeKit is safe for concurrent
// use.
type ClaudeKit struct {
	// Bin is the paige executable the hooks run (absolute path).
	Bin string
	// Version goes into plugin.json.
	Version string

	mu   sync.Mutex
	dir  string // the temporary directory, "" before the first Prepare; guarded by mu
	base string // server URL the files were written for; guarded by mu
}

// Prepare writes the kit for the server at base (once per base) and returns
// the directory to put first on PATH.
func (k *ClaudeKit) Prepare(base string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.dir == "" {
		dir, err := os.MkdirTemp("", "paige-claude-")
		if err != nil {
			return "", fmt.Errorf("claude kit: %w", err)
		}
		k.dir = dir
	}
	bin := filepath.Join(k.dir, "bin")
	if k.base == base {
		return bin, nil
	}
	if err := k.write(base); err != nil {
		return "", fmt.Errorf("claude kit: %w", err)
	}
	k.base = base
	return bin, nil
}

// kitFile is one file of the kit.
type kitFile struct {
	name string
	data []byte
	mode os.FileMode
}

// pluginContent returns the repository plugin's coaching skills and output
// styles (embedded in the binary), placed under the kit's plugin directory.
func pluginContent(pluginDir string) ([]kitFile, error) {
	var out []kitFile
	err := fs.WalkDir(paigeplugin.Content, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := paigeplugin.Content.ReadFile(path)
		if err != nil {
			return err
		}
		out = append(out, kitFile{filepath.Join(pluginDir, filepath.FromSlash(path)), data, 0o644})
		return nil
	})
	return out, err
}

// Close removes the kit's files.
func (k *ClaudeKit) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.dir == "" {
		return nil
	}
	err := os.RemoveAll(k.dir)
	k.dir, k.base = "", ""
	return err
}

// write lays out the plugin and the wrapper under k.dir. k.mu is held.
func (k *ClaudeKit) write(base string) error {
	plugin := filepath.Join(k.dir, "plugin")
	manifest, err := json.MarshalIndent(map[string]any{
		"name":        "paige",
		"version":     strings.TrimPrefix(k.Version, "v"),
		"description": "Paige for the workbench terminal: this server's MCP tools and Paige's hooks.",
	}, "", "  ")
	if err != nil {
		return err
	}
	mcp, err := claudecode.InstallMCP([]byte("{}"), strings.TrimSuffix(base, "/")+"/mcp")
	if err != nil {
		return err
	}
	hooks, err := claudecode.InstallHooks([]byte("{}"), k.Bin)
	if err != nil {
		return err
	}
	files := []kitFile{
		{filepath.Join(plugin, ".claude-plugin", "plugin.json"), manifest, 0o644},
		{filepath.Join(plugin, ".mcp.json"), mcp, 0o644},
		{filepath.Join(plugin, "hooks", "hooks.json"), hooks, 0o644},
		{filepath.Join(k.dir, "bin", "claude"), []byte(wrapperScript(filepath.Join(k.dir, "bin"), plugin)), 0o755},
	}
	skills, err := pluginContent(plugin)
	if err != nil {
		return err
	}
	files = append(files, skills...)
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.name), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(f.name, f.data, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// wrapperScript is bin/claude: it removes binDir from PATH, then runs the
// real claude with the plugin, or explains how to install Claude Code.
func wrapperScript(binDir, pluginDir string) string {
	return `#!/bin/sh
# Written by paige serve for the workbench terminal: runs Claude Code with
# Paige plugged in (this server's MCP tools and Paige's hooks).
set -f
old=$PATH
PATH=
IFS=:
for d in $old; do
	[ "$d" = ` + shQuote(binDir) + ` ] || PATH=${PATH:+$PATH:}$d
done
unset IFS
set +f
export PATH
if ! command -v claude >/dev/null 2>&1; then
	echo "Claude Code is not installed: ` + ClaudeInstall + `" >&2
	exit 127
fi
exec claude --plugin-dir ` + shQuote(pluginDir) + ` "$@"
`
}

// shQuote quotes s for a POSIX shell.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
