package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeKitHasCoachingSkills: the workbench terminal's plugin carries
// the repository plugin's coaching skills and output style, byte for byte.
func TestClaudeKitHasCoachingSkills(t *testing.T) {
	kit := &ClaudeKit{Bin: "/bin/paige", Version: "v1"}
	t.Cleanup(func() { kit.Close() })
	if _, err := kit.Prepare("http://127.0.0.1:1"); err != nil {
		t.Fatal(err)
	}
	kit.mu.Lock()
	plugin := filepath.Join(kit.dir, "plugin")
	kit.mu.Unlock()
	for _, rel := range []string{"skills/coach/SKILL.md", "skills/hint/SKILL.md", "skills/review/SKILL.md", "skills/finish/SKILL.md", "output-styles/coach.md"} {
		got, err := os.ReadFile(filepath.Join(plugin, filepath.FromSlash(rel)))
		want, werr := os.ReadFile(filepath.Join("..", "..", "..", "plugin", filepath.FromSlash(rel)))
		if err != nil || werr != nil || string(got) != string(want) {
			t.Errorf("%s: %v %v (same content: %v)", rel, err, werr, string(got) == string(want))
		}
	}
	hooks, _ := os.ReadFile(filepath.Join(plugin, "hooks", "hooks.json"))
	if !strings.Contains(string(hooks), "hook session-start --record-session") {
		t.Errorf("the kit's SessionStart does not record the session:\n%s", hooks)
	}
}
