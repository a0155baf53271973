package learncontext

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// Stale checks the procedures learned from behaviour against the
// repositories they were learned in, and returns the ids of those whose
// command or target no longer exists there, each with why: a removed
// package.json script, a gone Makefile or justfile target, a deleted
// script or directory, a manifest the tool needs that is gone (go.mod for
// go, mix.exs for mix…). A project whose directory is not on this machine
// is not checked: nothing there can be verified. It reads files and never
// writes.
func Stale(entries []learn.Entry) map[string]string {
	out := map[string]string{}
	for _, e := range entries {
		if e.Type != learn.Procedure || e.Observed == nil || e.Project == "" || !e.Active() {
			continue
		}
		root := projectName(e.Project)
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			continue
		}
		dir, cmd, ok := command(e.Observed.Key)
		if !ok {
			continue
		}
		if why := verify(root, dir, cmd); why != "" {
			out[e.ID] = why
		}
	}
	return out
}

// command reads the directory and command of a behaviour key
// ("procedure:<category>:<dir>:<command>", "fix:<category>:<dir>:<failed>=><fixed>").
func command(key string) (dir, cmd string, ok bool) {
	kind, rest, _ := strings.Cut(key, ":")
	if kind != "procedure" && kind != "fix" {
		return "", "", false
	}
	parts := strings.SplitN(rest, ":", 3)
	if len(parts) != 3 {
		return "", "", false
	}
	dir, cmd = parts[1], parts[2]
	if kind == "fix" {
		_, cmd, _ = strings.Cut(cmd, "=>")
	}
	return dir, cmd, cmd != ""
}

// manifests name the file a tool needs in the directory it runs in.
var manifests = map[string]string{
	"go": "go.mod", "cargo": "Cargo.toml", "mix": "mix.exs", "npm": "package.json", "pnpm": "package.json",
	"yarn": "package.json", "bun": "package.json", "poetry": "pyproject.toml", "bundle": "Gemfile",
	"make": "Makefile", "just": "justfile",
}

// builtins are package-manager commands that run no package.json script.
var builtins = map[string]bool{
	"install": true, "i": true, "ci": true, "add": true, "exec": true, "dlx": true, "x": true, "why": true,
	"audit": true, "outdated": true, "update": true, "remove": true, "publish": true, "pack": true, "init": true,
	"create": true, "link": true, "prune": true, "dedupe": true, "list": true, "ls": true,
}

// verify returns why cmd, run in dir under root, no longer holds ("" when
// it does, as far as the files tell).
func verify(root, dir, cmd string) string {
	here := filepath.Join(root, filepath.FromSlash(dir))
	if fi, err := os.Stat(here); err != nil || !fi.IsDir() {
		return "the directory " + dir + " is gone"
	}
	args := strings.Fields(cmd)
	if len(args) == 0 {
		return ""
	}
	tool := args[0]
	if strings.HasPrefix(tool, "./") || strings.Contains(tool, "/") {
		if _, err := os.Stat(filepath.Join(here, filepath.FromSlash(tool))); errors.Is(err, fs.ErrNotExist) {
			return tool + " is gone"
		}
		return ""
	}
	m, ok := manifests[tool]
	if !ok {
		return ""
	}
	path := findManifest(here, m, tool)
	if path == "" {
		return m + " is gone"
	}
	switch tool {
	case "npm", "pnpm", "yarn", "bun":
		if s := script(args); s != "" && !hasScript(path, s) {
			return "package.json has no script " + s
		}
	case "make", "just":
		if len(args) > 1 && !strings.HasPrefix(args[1], "-") && !hasTarget(path, args[1]) {
			return filepath.Base(path) + " has no target " + args[1]
		}
	}
	return ""
}

// findManifest returns the path of the manifest m in dir ("" when there
// is none); make and just accept their usual spellings.
func findManifest(dir, m, tool string) string {
	names := []string{m}
	switch tool {
	case "make":
		names = []string{"Makefile", "makefile", "GNUmakefile"}
	case "just":
		names = []string{"justfile", "Justfile", ".justfile"}
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// script is the package.json script a package-manager command runs ("" for
// a built-in command): "npm run build", "npm test", "pnpm lint".
func script(args []string) string {
	if len(args) < 2 {
		return ""
	}
	s := args[1]
	if s == "run" || s == "run-script" {
		if len(args) < 3 {
			return ""
		}
		return args[2]
	}
	if builtins[s] || strings.HasPrefix(s, "-") || args[0] == "npm" && s != "test" && s != "start" {
		return "" // npm runs only test and start without "run"
	}
	return s
}

func hasScript(packageJSON, name string) bool {
	b, err := os.ReadFile(packageJSON)
	if err != nil {
		return true // unreadable: not known to be gone
	}
	var p struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(b, &p) != nil {
		return true
	}
	_, ok := p.Scripts[name]
	return ok
}

func hasTarget(file, target string) bool {
	b, err := os.ReadFile(file)
	if err != nil {
		return true
	}
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(target) + `(\s[^:=\n]*)?\s*:([^=]|$)`)
	return re.Match(b)
}
