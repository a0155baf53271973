package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/paige-dev/paige/internal/testenv"
)

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
