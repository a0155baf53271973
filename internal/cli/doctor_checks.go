package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/coach/store"
	"github.com/paige-dev/paige/internal/config"
	"github.com/paige-dev/paige/internal/sqlite"
)

// checkPort passes when HOST:PORT is free or a Paige server answers /health there.
func checkPort(ctx context.Context, cfg config.Config) check {
	c := check{name: "port"}
	ln, err := net.Listen("tcp", cfg.Addr())
	if err == nil {
		ln.Close()
		c.ok, c.detail = true, cfg.Addr()+" is free"
		return c
	}
	if paigeHealthy(ctx, "http://"+cfg.Addr()+"/health") {
		c.ok, c.detail = true, "Paige is running on "+cfg.Addr()
		return c
	}
	c.detail = fmt.Sprintf("%s is taken by another program (%v)", cfg.Addr(), err)
	c.fix = "stop that program or choose another port: export PORT=3001 (and rerun paige claude install)"
	return c
}

// paigeHealthy reports whether url answers like Paige's GET /health.
func paigeHealthy(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var body struct {
		Status string   `json:"status"`
		Uptime *float64 `json:"uptime"`
	}
	err = json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<16)).Decode(&body)
	return err == nil && resp.StatusCode == http.StatusOK && body.Status == "ok" && body.Uptime != nil
}

// checkDataDir passes when DATA_DIR exists (or can be created) and is writable.
func checkDataDir(cfg config.Config) check {
	c := check{name: "data dir", required: true}
	if err := writable(cfg.DataDir); err != nil {
		c.detail = fmt.Sprintf("%s is not writable: %v", cfg.DataDir, err)
		c.fix = "fix its permissions or point DATA_DIR somewhere writable"
		return c
	}
	c.ok, c.detail = true, cfg.DataDir+" is writable"
	return c
}

// writable reports whether dir, or when it does not exist yet its nearest
// existing parent, accepts a new file. It creates nothing that stays.
func writable(dir string) error {
	d := dir
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", d)
			}
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			return err
		}
		d = parent
	}
	f, err := os.CreateTemp(d, ".paige-doctor-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// checkDatabase opens DATA_DIR/paige.db read-only and runs quick_check.
func checkDatabase(ctx context.Context, cfg config.Config) check {
	c := check{name: "database", required: true}
	path := filepath.Join(cfg.DataDir, store.FileName)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		c.ok, c.detail = true, path+" does not exist yet; paige serve creates it"
		return c
	}
	err := sqliteHealthy(ctx, path)
	if err != nil {
		c.detail = fmt.Sprintf("%s is corrupt or unreadable: %v", path, err)
		c.fix = fmt.Sprintf("stop paige, move it aside (mv %s %s.broken); paige serve starts a fresh one", path, path)
		return c
	}
	c.ok, c.detail = true, path+" is a healthy SQLite database"
	return c
}

// checkMemory checks the configured memory backend: the embedded store's
// database (DATA_DIR/memory.db), or ChromaDB's heartbeat.
func checkMemory(ctx context.Context, cfg config.Config) check {
	c := check{name: "memory", required: true}
	switch strings.ToLower(strings.TrimSpace(cfg.Memory)) {
	case "", "embedded":
		return checkEmbeddedMemory(ctx, c, cfg)
	case "chroma", "chromadb":
	default:
		c.detail = fmt.Sprintf("PAIGE_MEMORY=%q is not a memory backend", cfg.Memory)
		c.fix = "set PAIGE_MEMORY to embedded (default) or chroma"
		return c
	}
	url := strings.TrimRight(cfg.ChromaURL(), "/") + "/api/v2/heartbeat"
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err == nil {
		var resp *http.Response
		if resp, err = http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("HTTP %d", resp.StatusCode)
			}
		}
	}
	if err != nil {
		c.detail = fmt.Sprintf("ChromaDB at %s does not answer: %v", cfg.ChromaURL(), err)
		c.fix = "start ChromaDB (chroma run --port 8000), fix CHROMADB_URL, or unset it for the embedded store"
		return c
	}
	c.ok, c.detail = true, "ChromaDB at "+cfg.ChromaURL()+" answers"
	return c
}

// checkEmbeddedMemory checks DATA_DIR/memory.db like the coaching database.
func checkEmbeddedMemory(ctx context.Context, c check, cfg config.Config) check {
	path := filepath.Join(cfg.DataDir, "memory.db")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if err := writable(cfg.DataDir); err != nil {
			c.detail, c.fix = fmt.Sprintf("embedded store cannot be created in %s: %v", cfg.DataDir, err), "fix the permissions of DATA_DIR"
			return c
		}
		c.ok, c.detail = true, "embedded store "+path+" (created on first use)"
		return c
	}
	if err := sqliteHealthy(ctx, path); err != nil {
		c.detail = fmt.Sprintf("embedded store %s is corrupt or unreadable: %v", path, err)
		c.fix = fmt.Sprintf("stop paige and move it aside (mv %s %s.broken); memories start afresh", path, path)
		return c
	}
	c.ok, c.detail = true, "embedded store "+path
	return c
}

// sqliteHealthy opens path read-only and runs PRAGMA quick_check.
func sqliteHealthy(ctx context.Context, path string) error {
	db, err := sqlite.OpenReadOnly(path)
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return errors.New(res)
	}
	return nil
}

// checkProgram finds name on PATH and prints its version.
func checkProgram(ctx context.Context, cfg config.Config, name string, required bool, fix string) check {
	c := check{name: name, required: required}
	p := lookPath(name, cfg.Process.Path)
	if p == "" {
		c.detail, c.fix = name+" is not on PATH", fix
		return c
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, "--version").Output()
	if err != nil {
		c.detail, c.fix = fmt.Sprintf("%s does not run: %v", p, err), fix
		return c
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	c.ok, c.detail = true, first
	return c
}

// checkLearnQueue reports transcripts whose learning failed.
func checkLearnQueue(cfg config.Config) check {
	c := check{name: "learn queue", ok: true}
	q := learnQueue(cfg)
	failed, _ := q.Failed()
	pending, _ := q.Pending()
	c.detail = fmt.Sprintf("%d waiting, %d failed", len(pending), len(failed))
	if len(failed) > 0 {
		c.ok = false
		c.detail += "; last error: " + failed[len(failed)-1].Error
		c.fix = "see " + learnLogPath(cfg) + "; rerun with paige learn extract -i <transcript>"
	}
	return c
}

// checkClaudeSettings reports where Paige's hooks and MCP server are
// installed (user or project settings, or the plugin) and whether the
// installed hooks still point at an existing binary.
func checkClaudeSettings(e *env, cfg config.Config) []check {
	hooks := check{name: "claude hooks"}
	mcp := check{name: "claude mcp"}
	var places []claudeFiles
	if u, err := claudeTargets(e, false, ""); err == nil {
		places = append(places, u)
	}
	if wd, err := os.Getwd(); err == nil {
		if p, _ := claudeTargets(e, true, wd); len(places) == 0 || p.settings != places[0].settings {
			places = append(places, p)
		}
	}
	var found, missing, retired []string
	plugin, inSettings := false, false
	pluginMCP := ""                           // where the plugin, which brings its own MCP server, was seen
	if seen := pluginFound(cfg); seen != "" { // informational: may predate the settings' hooks
		found = append(found, seen)
		pluginMCP = seen
	}
	for _, p := range places {
		data, _ := os.ReadFile(p.settings)
		for _, name := range enabledPaigePlugins(data) {
			plugin = true
			found = append(found, "plugin "+name+" enabled in "+p.settings)
			pluginMCP = "plugin " + name + " enabled in " + p.settings
		}
		cmds, err := claudecode.PaigeHookCommands(data)
		if err != nil {
			hooks.detail = fmt.Sprintf("%s: %v", p.settings, err)
			hooks.fix = "repair the JSON of " + p.settings
			return []check{hooks, mcpCheck(mcp, places, pluginMCP)}
		}
		for _, cmd := range cmds {
			if bin := claudecode.HookBinary(cmd); filepath.IsAbs(bin) && lookPath(filepath.Base(bin), filepath.Dir(bin)) == "" {
				missing = append(missing, bin)
			}
			if claudecode.IsRetiredHookCommand(cmd) {
				retired = append(retired, cmd)
			}
		}
		if len(cmds) > 0 {
			inSettings = true
			found = append(found, fmt.Sprintf("%d hooks in %s", len(cmds), p.settings))
		}
	}
	switch {
	case plugin && inSettings:
		hooks.detail = "installed twice (" + strings.Join(found, "; ") + "): every hook runs twice"
		hooks.fix = "keep one: paige claude uninstall, or disable the plugin"
	case len(missing) > 0:
		hooks.detail = "hooks run " + missing[0] + ", which does not exist"
		hooks.fix = "paige claude install (rewrites the hooks for this binary)"
	case len(retired) > 0:
		hooks.detail = "hooks run " + retired[0] + ", a second SessionStart command Claude Code waits for: session-start prints the coaching state itself now"
		hooks.fix = "paige claude install (replaces it with the one SessionStart hook)"
	case len(found) == 0:
		hooks.detail = "Paige's hooks are not installed"
		hooks.fix = "paige claude install (or install the plugin: claude --plugin-dir plugin)"
	default:
		hooks.ok, hooks.detail = true, strings.Join(found, "; ")
	}
	return []check{hooks, mcpCheck(mcp, places, pluginMCP)}
}

// mcpCheck passes when a settings file names Paige's MCP server, or when
// the plugin is enabled or was loaded: its .mcp.json brings the server
// (Claude Code names it plugin:paige:paige, its tools mcp__plugin_paige_paige__…).
func mcpCheck(c check, places []claudeFiles, plugin string) check {
	for _, p := range places {
		data, _ := os.ReadFile(p.mcp)
		if url, ok, err := claudecode.PaigeMCPURL(data); err == nil && ok {
			c.ok, c.detail = true, fmt.Sprintf("server %q → %s in %s", claudecode.MCPServerName, url, p.mcp)
			return c
		}
	}
	if plugin != "" {
		c.ok, c.detail = true, "server \"plugin:paige:paige\" from the plugin's .mcp.json ("+plugin+")"
		return c
	}
	c.detail = "no \"paige\" MCP server in ~/.claude.json or ./.mcp.json"
	c.fix = "paige claude install (or use the plugin, which brings its .mcp.json)"
	return c
}
