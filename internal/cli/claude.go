package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/spf13/cobra"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/config"
)

// claudeFlags are the flags of `paige claude install|uninstall`.
type claudeFlags struct {
	user, project, dryRun bool
	bin                   string
}

func newClaudeCmd(e *env) *cobra.Command {
	return groupCmd("claude", "Plug Paige into Claude Code (install, uninstall)", newClaudeInstallCmd(e), newClaudeUninstallCmd(e))
}

func newClaudeInstallCmd(e *env) *cobra.Command {
	cmd, f := claudeApplyCmd(e, true, "install", "Add Paige's MCP server and hooks to Claude Code's settings",
		`Adds Paige's MCP server (Streamable HTTP on http://127.0.0.1:$PORT/mcp) and its hooks
(SessionStart, SessionEnd, PreToolUse → 'paige hook …') to Claude Code's settings.

  --user     (default) hooks in ~/.claude/settings.json, MCP server in ~/.claude.json
  --project  hooks in ./.claude/settings.json, MCP server in ./.mcp.json

Installing twice is the same as once. Every file changed is first copied to
<file>.paige-backup-<time>; unknown keys and their order are kept. --dry-run prints
the diff and writes nothing. Run it while Claude Code is closed.`)
	cmd.Flags().StringVar(&f.bin, "bin", "", "paige binary the hooks run (default: $PAIGE_BIN or this executable)")
	return cmd
}

func newClaudeUninstallCmd(e *env) *cobra.Command {
	cmd, _ := claudeApplyCmd(e, false, "uninstall", "Remove exactly what 'paige claude install' added",
		`Removes the hooks whose command is '<…>/paige hook <session-start|session-end|pre-tool-use>'
and the "paige" MCP server from the same files install writes, keeping everything else.
Changed files are backed up first; --dry-run prints the diff and writes nothing.`)
	return cmd
}

// claudeApplyCmd is `paige claude <verb> [--user|--project] [--dry-run]`,
// which installs (install) or uninstalls; its flags fill the returned
// claudeFlags.
func claudeApplyCmd(e *env, install bool, verb, short, long string) (*cobra.Command, *claudeFlags) {
	f := &claudeFlags{}
	cmd := &cobra.Command{
		Use:   verb + " [--user|--project] [--dry-run]",
		Short: short,
		Long:  long,
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return claudeApply(e, *f, install) },
	}
	cmd.Flags().BoolVar(&f.user, "user", false, "your user settings (default)")
	cmd.Flags().BoolVar(&f.project, "project", false, "the current directory's project settings")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the changes, write nothing")
	cmd.MarkFlagsMutuallyExclusive("user", "project")
	return cmd, f
}

// claudeFiles are the two files install edits for one scope.
type claudeFiles struct {
	settings string // hooks
	mcp      string // mcpServers
}

// claudeTargets returns the files of the user scope, or of the project
// scope rooted at dir.
func claudeTargets(e *env, project bool, dir string) (claudeFiles, error) {
	if project {
		return claudeFiles{
			settings: filepath.Join(dir, ".claude", "settings.json"),
			mcp:      filepath.Join(dir, ".mcp.json"),
		}, nil
	}
	cfg, _ := e.config() // HOME only: malformed values elsewhere are claudeApply's to report
	home := cfg.Process.Home
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return claudeFiles{}, fmt.Errorf("find your home directory: %w (set HOME)", err)
		}
		home = h
	}
	return claudeFiles{
		settings: filepath.Join(home, ".claude", "settings.json"),
		mcp:      filepath.Join(home, ".claude.json"),
	}, nil
}

func claudeApply(e *env, f claudeFlags, install bool) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	files, err := claudeTargets(e, f.project, dir)
	if err != nil {
		return err
	}
	cfg, err := config.Load(e.getenv)
	if err != nil {
		return err
	}
	bin := f.bin
	if bin == "" {
		if bin, err = paigeBinary(cfg); err != nil {
			return err
		}
	}
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	edits := claudeEdits(files, install, bin, cfg.Port)
	// Compute every file first: a file that cannot be edited stops the
	// command before anything is written.
	var changes []fileChange
	for _, ed := range edits {
		c, err := planEdit(ed.path, ed.edit)
		if err != nil {
			return &ExitError{Code: 1, Err: err}
		}
		changes = append(changes, c)
	}
	now := time.Now()
	for _, c := range changes {
		if err := c.apply(e, f.dryRun, now); err != nil {
			return &ExitError{Code: 1, Err: err}
		}
	}
	if install && !f.dryRun {
		runs := bin + " hook …"
		if small := claudecode.HookBinaryBeside(bin); small != "" {
			runs = small + " session-start and " + runs
		} else {
			fmt.Fprintf(e.stderr, "note: no %s beside %s: the SessionStart hook runs the whole of paige (build both with make build)\n", claudecode.HookBinaryName, bin)
		}
		fmt.Fprintf(e.stdout, "Paige is plugged into Claude Code (hooks run %s). Start 'paige serve' for the MCP tools; restart Claude Code to load the changes.\n", runs)
	}
	return nil
}

// fileEdit is one file and the change to make to its content.
type fileEdit struct {
	path string
	edit func([]byte) ([]byte, error)
}

// claudeEdits are install's (or uninstall's) changes to the MCP and the
// settings file.
func claudeEdits(files claudeFiles, install bool, bin string, port int) []fileEdit {
	return []fileEdit{
		{files.mcp, func(b []byte) ([]byte, error) {
			if install {
				return claudecode.InstallMCP(b, claudecode.MCPURL(port))
			}
			out, _, err := claudecode.UninstallMCP(b)
			return out, err
		}},
		{files.settings, func(b []byte) ([]byte, error) {
			if install {
				return claudecode.InstallHooks(b, bin)
			}
			out, _, err := claudecode.UninstallHooks(b, bin)
			return out, err
		}},
	}
}

// fileChange is one settings file before and after an edit.
type fileChange struct {
	path      string
	old, next []byte
	existed   bool
	mode      fs.FileMode
}

// planEdit applies edit to the file at path (missing: empty) in memory.
func planEdit(path string, edit func([]byte) ([]byte, error)) (fileChange, error) {
	c := fileChange{path: path, mode: 0o644}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return c, err
	}
	c.old, c.existed = old, err == nil
	if c.existed {
		if fi, err := os.Stat(path); err == nil {
			c.mode = fi.Mode().Perm()
		}
	}
	if c.next, err = edit(old); err != nil {
		return c, fmt.Errorf("%s: %w (nothing was changed)", path, err)
	}
	return c, nil
}

// apply prints the diff (dryRun) or backs the file up and writes it atomically.
func (c fileChange) apply(e *env, dryRun bool, now time.Time) error {
	if bytes.Equal(c.old, c.next) || (!c.existed && isEmptyJSONObject(c.next)) {
		fmt.Fprintf(e.stdout, "%s: unchanged\n", c.path)
		return nil
	}
	if dryRun {
		fmt.Fprint(e.stdout, udiff.Unified(c.path, c.path+" (after)", string(c.old), string(c.next)))
		return nil
	}
	if c.existed {
		backup := fmt.Sprintf("%s.paige-backup-%s", c.path, now.UTC().Format("20060102T150405.000Z"))
		if err := os.WriteFile(backup, c.old, c.mode); err != nil {
			return fmt.Errorf("back up %s: %w", c.path, err)
		}
		fmt.Fprintf(e.stdout, "%s: backed up to %s\n", c.path, backup)
	}
	if err := writeAtomic(c.path, c.next, c.mode); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: updated\n", c.path)
	return nil
}

func isEmptyJSONObject(b []byte) bool { return string(bytes.TrimSpace(b)) == "{}" }

// writeAtomic writes data to path through a temporary file and a rename.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}
