package claudecode

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// HookSpec is one Claude Code hook Paige installs: the event, the tool
// matcher (PreToolUse only), the `paige hook` subcommand, its flags and the
// timeout in seconds.
type HookSpec struct {
	Event   string
	Matcher string
	Sub     string
	Flags   string // appended after Sub, e.g. "--record-session"; "" for none
	Timeout int
	// Small marks the hook the small [HookBinaryName] binary runs (as
	// `paige-hook <Sub>`) when it is installed: it starts once per session,
	// and the whole of paige costs five times its start-up.
	Small bool
}

// HookBinaryName is the small binary (cmd/paige-hook) that runs the hooks
// marked Small, from the same directory as paige.
const HookBinaryName = "paige-hook"

// Hooks are the hooks Paige installs, in this order, in settings files and
// in plugin/hooks/hooks.json. SessionStart has one command, which adds the
// coaching state when a coaching session is active: Claude Code waits for
// every SessionStart command of a start.
var Hooks = []HookSpec{
	{Event: "SessionStart", Sub: "session-start", Flags: "--record-session", Timeout: 10, Small: true},
	{Event: "UserPromptSubmit", Sub: "prompt-submit", Timeout: 5},
	{Event: "SessionEnd", Sub: "session-end", Timeout: 5},
	{Event: "PreToolUse", Matcher: strings.Join(append(ReadOnlyTools[:len(ReadOnlyTools):len(ReadOnlyTools)], "Bash"), "|"), Sub: "pre-tool-use", Timeout: 5},
}

// RetiredHookSubs are `paige hook` subcommands Paige installed as hooks
// before and no longer does (coaching-state: session-start prints the
// coaching state itself). An entry running one is still Paige's: install
// replaces it, uninstall removes it, doctor flags it.
var RetiredHookSubs = []string{"coaching-state"}

// IsRetiredHookCommand reports whether cmd is a Paige hook command (see
// [IsPaigeHookCommand]) running one of [RetiredHookSubs].
func IsRetiredHookCommand(cmd string, bins ...string) bool {
	words, ok := simpleWords(cmd)
	return ok && len(words) >= 3 && slices.Contains(RetiredHookSubs, words[2]) && IsPaigeHookCommand(cmd, bins...)
}

// MCPServerName is the key of Paige's entry in Claude Code's mcpServers.
const MCPServerName = "paige"

// Command returns the shell command that runs the hook with the paige
// binary bin, quoted when it needs to be: `<bin> hook <sub> [flags]`, or
// for a Small hook `<dir>/paige-hook <sub> [flags]` when an executable
// paige-hook sits beside bin (see [HookBinaryBeside]).
func (h HookSpec) Command(bin string) string {
	return h.CommandWith(bin, HookBinaryBeside(bin))
}

// CommandWith is [HookSpec.Command] with the small binary hookBin given
// ("" for none).
func (h HookSpec) CommandWith(bin, hookBin string) string {
	cmd := shellQuote(bin) + " hook " + h.Sub
	if h.Small && hookBin != "" {
		cmd = shellQuote(hookBin) + " " + h.Sub
	}
	if h.Flags != "" {
		cmd += " " + h.Flags
	}
	return cmd
}

// PluginCommand is the hook's command in plugin/hooks/hooks.json, where
// both binaries are looked up on PATH: a Small hook runs paige-hook when
// there is one and `paige hook` otherwise (a bare paige-hook would exit 127
// where only paige is installed), by exec, so the shell does not wait
// beside it.
func (h HookSpec) PluginCommand() string {
	full := h.CommandWith("paige", "")
	if !h.Small {
		return full
	}
	return "if command -v " + HookBinaryName + " >/dev/null 2>&1; then exec " + h.CommandWith("paige", HookBinaryName) +
		"; else exec " + full + "; fi"
}

// HookBinaryBeside returns the paige-hook executable in bin's directory,
// or "" when bin has no directory or there is none.
func HookBinaryBeside(bin string) string {
	if !filepath.IsAbs(bin) {
		return ""
	}
	p := filepath.Join(filepath.Dir(bin), HookBinaryName)
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return p
}

// IsPaigeHookCommand reports whether a hook command runs `<paige> hook <sub>
// [--flag…]` for one of Paige's hooks (retired ones included, see
// [RetiredHookSubs]), or `<paige-hook> <sub> [--flag…]` for a Small one:
// that is how Paige finds its own entries in a settings
// file. The program is Paige when it is one of bins
// (the binaries being installed or running, compared as given and with
// symlinks resolved), or when its file name is paige, or paige followed by
// '-', '_', '.' or a digit (paige-dev, paige.exe, paige2), in any directory.
// Only flags may follow the subcommand, so a user's own command that merely
// mentions Paige is never taken.
func IsPaigeHookCommand(cmd string, bins ...string) bool {
	words, ok := simpleWords(cmd)
	if ok && len(words) >= 2 && isSmallHook(words[1]) {
		words = append([]string{words[0], "hook"}, words[1:]...)
	}
	if !ok || len(words) < 3 || words[1] != "hook" {
		return false
	}
	for _, w := range words[3:] {
		if !strings.HasPrefix(w, "-") {
			return false
		}
	}
	if !isPaigeProgram(words[0], bins) {
		return false
	}
	for _, h := range Hooks {
		if words[2] == h.Sub {
			return true
		}
	}
	return slices.Contains(RetiredHookSubs, words[2])
}

// isSmallHook reports whether sub is the subcommand of a Small hook.
func isSmallHook(sub string) bool {
	for _, h := range Hooks {
		if h.Small && h.Sub == sub {
			return true
		}
	}
	return false
}

// isPaigeProgram reports whether prog names a Paige binary (see
// [IsPaigeHookCommand]).
func isPaigeProgram(prog string, bins []string) bool {
	for _, b := range bins {
		if b != "" && (prog == b || sameFile(prog, b)) {
			return true
		}
	}
	rest, ok := strings.CutPrefix(strings.ToLower(filepath.Base(prog)), "paige")
	return ok && (rest == "" || strings.ContainsRune("-_.0123456789", rune(rest[0])))
}

// sameFile reports whether a and b resolve to the same existing file.
func sameFile(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// InstallHooks returns settings (a Claude Code settings.json, possibly empty)
// with Paige's hooks for binary bin: earlier Paige entries are removed first,
// so installing twice equals installing once (byte for byte); everything
// else keeps its bytes (see settings_edit.go).
func InstallHooks(settings []byte, bin string) ([]byte, error) {
	root, err := parseObject(settings)
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	var ops patch
	if _, err := removePaigeHooks(root, false, &ops, bin); err != nil {
		return nil, err
	}
	hooks, _ := root.vals["hooks"].(*object)
	if hooks == nil { // absent: removePaigeHooks refused anything else
		hooks = newObject()
		ops.add("/hooks", hooks)
	}
	created := map[string]bool{} // events whose list this install adds (two hooks may share one)
	for _, h := range Hooks {
		groups, exists := hooks.get(h.Event)
		if _, ok := groups.([]any); groups != nil && !ok {
			return nil, fmt.Errorf("settings: hooks.%s is not a list", h.Event)
		}
		if (!exists || groups == nil) && !created[h.Event] {
			ops.add(pointer("hooks", h.Event), []any{})
			created[h.Event] = true
		}
		g := newObject()
		if h.Matcher != "" {
			g.set("matcher", h.Matcher)
		}
		cmd := newObject()
		cmd.set("type", "command")
		cmd.set("command", h.Command(bin))
		cmd.set("timeout", h.Timeout)
		g.set("hooks", []any{cmd})
		ops.add(pointer("hooks", h.Event, "-"), g)
	}
	out, err := applyEdits(settings, ops)
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	return out, nil
}

// UninstallHooks returns settings without Paige's hook entries (see
// [IsPaigeHookCommand]; bins are the Paige binaries known whatever their
// names); groups, events and the hooks object left empty by the removal are
// removed too, so uninstall after install gives back the file byte for
// byte. changed is false when there was nothing to remove, and then out is
// settings unchanged.
func UninstallHooks(settings []byte, bins ...string) (out []byte, changed bool, err error) {
	root, err := parseObject(settings)
	if err != nil {
		return nil, false, fmt.Errorf("settings: %w", err)
	}
	var ops patch
	changed, err = removePaigeHooks(root, true, &ops, bins...)
	if err != nil || !changed {
		return settings, false, err
	}
	out, err = applyEdits(settings, ops)
	if err != nil {
		return nil, false, fmt.Errorf("settings: %w", err)
	}
	return out, true, nil
}

// removePaigeHooks appends to ops the removal of Paige's commands from
// root.hooks and reports whether there were any. With prune, events and
// the hooks object left empty are removed; without, they stay in place so a
// reinstall keeps key order. root is not changed.
func removePaigeHooks(root *object, prune bool, ops *patch, bins ...string) (bool, error) {
	v, ok := root.get("hooks")
	if !ok {
		return false, nil
	}
	hooks, ok := v.(*object)
	if !ok {
		return false, fmt.Errorf("settings: \"hooks\" is not a JSON object")
	}
	start, removed, allGone := len(*ops), false, true
	for _, event := range hooks.keys {
		groups, ok := hooks.vals[event].([]any)
		if !ok || len(groups) == 0 {
			allGone = false
			continue
		}
		var inner patch
		kept := 0
		for i := len(groups) - 1; i >= 0; i-- { // from the end: indices stay valid
			cmds, all := paigeCommands(groups[i], bins)
			switch {
			case len(cmds) == 0:
				kept++
			case all:
				inner.remove(pointer("hooks", event, i))
			default:
				kept++
				for j := len(cmds) - 1; j >= 0; j-- {
					inner.remove(pointer("hooks", event, i, "hooks", cmds[j]))
				}
			}
			removed = removed || len(cmds) > 0
		}
		if prune && kept == 0 {
			ops.remove(pointer("hooks", event))
			continue
		}
		allGone = allGone && kept == 0
		*ops = append(*ops, inner...)
	}
	if prune && removed && allGone {
		*ops = append((*ops)[:start], map[string]any{"op": "remove", "path": "/hooks"})
	}
	return removed, nil
}

// paigeCommands returns the indices of Paige's commands in one matcher
// group's hooks list, and whether they are all of its entries.
func paigeCommands(g any, bins []string) (idx []int, all bool) {
	obj, ok := g.(*object)
	if !ok {
		return nil, false
	}
	list, ok := obj.vals["hooks"].([]any)
	if !ok {
		return nil, false
	}
	for j, h := range list {
		if ho, ok := h.(*object); ok {
			if c, _ := ho.vals["command"].(string); IsPaigeHookCommand(c, bins...) {
				idx = append(idx, j)
			}
		}
	}
	return idx, len(idx) > 0 && len(idx) == len(list)
}

// MCPURL is the Streamable HTTP endpoint of a Paige server on port.
func MCPURL(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/mcp", port) }

// InstallMCP returns data (a ~/.claude.json or a project .mcp.json, possibly
// empty) with mcpServers.paige set to the Streamable HTTP server at url;
// everything else keeps its bytes.
func InstallMCP(data []byte, url string) ([]byte, error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("mcp config: %w", err)
	}
	s := newObject()
	s.set("type", "http")
	s.set("url", url)
	var ops patch
	switch v, _ := root.get("mcpServers"); v.(type) {
	case nil:
		servers := newObject()
		servers.set(MCPServerName, s)
		ops.add("/mcpServers", servers)
	case *object:
		ops.add(pointer("mcpServers", MCPServerName), s)
	default:
		return nil, fmt.Errorf("mcp config: %q is not a JSON object", "mcpServers")
	}
	out, err := applyEdits(data, ops)
	if err != nil {
		return nil, fmt.Errorf("mcp config: %w", err)
	}
	return out, nil
}

// UninstallMCP returns data without mcpServers.paige (and without
// mcpServers when that leaves it empty). changed is false when there was no
// such entry, and then out is data unchanged.
func UninstallMCP(data []byte) (out []byte, changed bool, err error) {
	root, err := parseObject(data)
	if err != nil {
		return nil, false, fmt.Errorf("mcp config: %w", err)
	}
	servers, ok := root.vals["mcpServers"].(*object)
	if !ok {
		return data, false, nil
	}
	if _, ok := servers.get(MCPServerName); !ok {
		return data, false, nil
	}
	var ops patch
	if len(servers.keys) == 1 {
		ops.remove("/mcpServers")
	} else {
		ops.remove(pointer("mcpServers", MCPServerName))
	}
	out, err = applyEdits(data, ops)
	if err != nil {
		return nil, false, fmt.Errorf("mcp config: %w", err)
	}
	return out, true, nil
}

// shellQuote quotes s for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+:@%,=", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// PaigeHookCommands returns the commands of Paige's hook entries in a
// settings file, in file order (bins as for [IsPaigeHookCommand]).
func PaigeHookCommands(settings []byte, bins ...string) ([]string, error) {
	root, err := parseObject(settings)
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	hooks, _ := root.vals["hooks"].(*object)
	if hooks == nil {
		return nil, nil
	}
	var out []string
	for _, event := range hooks.keys {
		groups, _ := hooks.vals[event].([]any)
		for _, g := range groups {
			obj, _ := g.(*object)
			if obj == nil {
				continue
			}
			list, _ := obj.vals["hooks"].([]any)
			for _, h := range list {
				if ho, ok := h.(*object); ok {
					if c, _ := ho.vals["command"].(string); IsPaigeHookCommand(c, bins...) {
						out = append(out, c)
					}
				}
			}
		}
	}
	return out, nil
}

// PaigeMCPURL returns the URL of mcpServers.paige in a ~/.claude.json or
// .mcp.json, and whether the entry exists.
func PaigeMCPURL(data []byte) (string, bool, error) {
	root, err := parseObject(data)
	if err != nil {
		return "", false, fmt.Errorf("mcp config: %w", err)
	}
	servers, _ := root.vals["mcpServers"].(*object)
	if servers == nil {
		return "", false, nil
	}
	s, ok := servers.vals[MCPServerName]
	if !ok {
		return "", false, nil
	}
	obj, _ := s.(*object)
	if obj == nil {
		return "", true, nil
	}
	url, _ := obj.vals["url"].(string)
	return url, true, nil
}

// HookBinary returns the program of a hook command (its first word), or ""
// when cmd is not one simple command with literal words.
func HookBinary(cmd string) string {
	words, ok := simpleWords(cmd)
	if !ok || len(words) == 0 {
		return ""
	}
	return words[0]
}
