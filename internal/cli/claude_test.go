package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/paige-dev/paige/internal/claudecode"
	"github.com/paige-dev/paige/internal/testenv"
)

// runPaige runs the whole command line in-process with vars as the environment.
func runPaige(tb testing.TB, vars map[string]string, stdin string, args ...string) (stdout, stderr string, err error) {
	tb.Helper()
	var out, errb bytes.Buffer
	err = Run(context.Background(), args, func(k string) string { return vars[k] }, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), err
}

// mustRead returns the file's bytes; an error fails the test.
var mustRead = testenv.ReadFile

// writeFile writes content to path (0600), creating its directories.
func writeFile(tb testing.TB, path, content string) {
	tb.Helper()
	testenv.WriteFile(tb, path, content, 0o600)
}

func readJSON(tb testing.TB, path string) any {
	tb.Helper()
	var v any
	if err := json.Unmarshal(testenv.ReadFile(tb, path), &v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return v
}

func backups(tb testing.TB, path string) []string {
	tb.Helper()
	m, err := filepath.Glob(path + ".paige-backup-*")
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

const origSettings = `{"theme": "dark", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`
const origClaudeJSON = `{"numStartups": 3, "mcpServers": {"gh": {"type": "http", "url": "https://x/mcp"}}}`

func TestClaudeInstallUninstallUser(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	claudeJSON := filepath.Join(home, ".claude.json")
	writeFile(t, settings, origSettings)
	writeFile(t, claudeJSON, origClaudeJSON)
	vars := map[string]string{"HOME": home, "PORT": "4111", "DATA_DIR": t.TempDir()}
	bin := "/opt/paige/bin/paige"

	for i := 0; i < 2; i++ {
		if _, errOut, err := runPaige(t, vars, "", "claude", "install", "--bin", bin); err != nil {
			t.Fatalf("install %d: %v %s", i, err, errOut)
		}
	}
	if n := len(backups(t, settings)); n != 1 {
		t.Errorf("got %d backups of settings.json, want 1 (the second install changes nothing)", n)
	}
	if got := string(mustRead(t, backups(t, settings)[0])); got != origSettings {
		t.Errorf("backup = %q, want the original", got)
	}
	s := string(mustRead(t, settings))
	if strings.Count(s, bin+" hook ") != len(claudecode.Hooks) || !strings.Contains(s, "say done") || !strings.Contains(s, `"theme": "dark"`) {
		t.Errorf("settings after install:\n%s", s)
	}
	mcp := readJSON(t, claudeJSON).(map[string]any)["mcpServers"].(map[string]any)
	if diff := cmp.Diff(map[string]any{"type": "http", "url": "http://127.0.0.1:4111/mcp"}, mcp["paige"]); diff != "" {
		t.Errorf("mcpServers.paige (-want +got):\n%s", diff)
	}
	if fi, _ := os.Stat(claudeJSON); fi.Mode().Perm() != 0o600 {
		t.Errorf("~/.claude.json mode %v, want 0600 kept", fi.Mode().Perm())
	}

	if _, errOut, err := runPaige(t, vars, "", "claude", "uninstall"); err != nil {
		t.Fatalf("uninstall: %v %s", err, errOut)
	}
	var want any
	_ = json.Unmarshal([]byte(origSettings), &want)
	if diff := cmp.Diff(want, readJSON(t, settings)); diff != "" {
		t.Errorf("settings after uninstall (-want +got):\n%s", diff)
	}
	_ = json.Unmarshal([]byte(origClaudeJSON), &want)
	if diff := cmp.Diff(want, readJSON(t, claudeJSON)); diff != "" {
		t.Errorf("~/.claude.json after uninstall (-want +got):\n%s", diff)
	}
}

func TestClaudeInstallProjectDryRun(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	vars := map[string]string{"HOME": t.TempDir(), "DATA_DIR": t.TempDir()}
	out, _, err := runPaige(t, vars, "", "claude", "install", "--project", "--dry-run", "--bin", "/b/paige")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"+++ " + filepath.Join(dir, ".mcp.json"), `"url": "http://127.0.0.1:3000/mcp"`, "/b/paige hook pre-tool-use"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry-run output lacks %q:\n%s", want, out)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("dry-run wrote %v", entries)
	}

	if _, _, err := runPaige(t, vars, "", "claude", "install", "--project", "--bin", "/b/paige"); err != nil {
		t.Fatal(err)
	}
	if readJSON(t, filepath.Join(dir, ".mcp.json")) == nil || readJSON(t, filepath.Join(dir, ".claude", "settings.json")) == nil {
		t.Fatal("project files not written")
	}
	before := string(mustRead(t, filepath.Join(dir, ".claude", "settings.json")))
	out, _, err = runPaige(t, vars, "", "claude", "uninstall", "--project", "--dry-run")
	if err != nil || !strings.Contains(out, "-            \"command\": \"/b/paige hook session-start --record-session\",") {
		t.Errorf("uninstall dry-run: %v\n%s", err, out)
	}
	if after := string(mustRead(t, filepath.Join(dir, ".claude", "settings.json"))); after != before {
		t.Error("uninstall --dry-run wrote the settings")
	}
	if _, _, err := runPaige(t, vars, "", "claude", "uninstall", "--project"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".mcp.json", filepath.Join(".claude", "settings.json")} {
		if diff := cmp.Diff(map[string]any{}, readJSON(t, filepath.Join(dir, f))); diff != "" {
			t.Errorf("%s after uninstall (-want +got):\n%s", f, diff)
		}
	}
}

func TestClaudeInstallRefusesBrokenSettings(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	writeFile(t, settings, `{"hooks": [`)
	vars := map[string]string{"HOME": home, "DATA_DIR": t.TempDir()}
	_, _, err := runPaige(t, vars, "", "claude", "install", "--bin", "/b/paige")
	if err == nil || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if got := string(mustRead(t, settings)); got != `{"hooks": [` {
		t.Errorf("broken settings were overwritten: %q", got)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude.json")); !os.IsNotExist(err) {
		t.Errorf("~/.claude.json written although the install failed: %v", err)
	}
	if _, _, err := runPaige(t, vars, "", "claude", "install", "--user", "--project"); err == nil {
		t.Error("--user with --project accepted")
	}
}

// TestClaudeInstallWhateverTheBinaryIsCalled runs the built binary under a
// name that is not "paige", directly and through a symlink: installing
// twice is the same as once, and uninstall gives back the user's files.
func TestClaudeInstallWhateverTheBinaryIsCalled(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	data, err := os.ReadFile(builtPaige(t))
	if err != nil {
		t.Fatal(err)
	}
	tool := filepath.Join(dir, "coach-tool")
	if err := os.WriteFile(tool, data, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(tool, link); err != nil {
		t.Fatal(err)
	}
	settings, claudeJSON := filepath.Join(home, ".claude", "settings.json"), filepath.Join(home, ".claude.json")
	writeFile(t, settings, origSettings)
	writeFile(t, claudeJSON, origClaudeJSON)
	env := []string{"HOME=" + home, "PATH=" + testenv.ToolPath(t, "git"), "PAIGE_OFFLINE=1", "DATA_DIR=" + filepath.Join(home, "data")}

	runBinHook(t, tool, env, "", "claude", "install")
	once := string(mustRead(t, settings))
	runBinHook(t, tool, env, "", "claude", "install")
	runBinHook(t, link, env, "", "claude", "install")
	if twice := string(mustRead(t, settings)); twice != once {
		t.Errorf("installing again changed the settings:\n%s\nthen\n%s", once, twice)
	}
	if n := len(backups(t, settings)); n != 1 {
		t.Errorf("%d backups of settings.json, want 1 (the later installs changed nothing)", n)
	}
	runBinHook(t, link, env, "", "claude", "uninstall")
	if diff := cmp.Diff(readJSONString(t, origSettings), readJSON(t, settings)); diff != "" {
		t.Errorf("settings after uninstall (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(readJSONString(t, origClaudeJSON), readJSON(t, claudeJSON)); diff != "" {
		t.Errorf(".claude.json after uninstall (-want +got):\n%s", diff)
	}
}

func readJSONString(tb testing.TB, s string) any {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "x.json")
	writeFile(tb, p, s)
	return readJSON(tb, p)
}
