package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/learn/trail/trailtest"
)

// TestLearnContextWhy: for a project, the context takes its procedures
// that still hold, leaves out the one whose script is gone, and the
// receipt says what went in at what cost and why the other was left out.
func TestLearnContextWhy(t *testing.T) {
	env := learnEnv(t)
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "package.json"), []byte(`{"scripts":{"test":"vitest","build":"next build"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := trailtest.New("ctx1", repo).
		Bash("pnpm test", "Tests 3 passed", 0).Bash("pnpm lint", "ok", 0).
		Bash("pnpm test", "Tests 3 passed", 0).Bash("pnpm lint", "ok", 0).Bash("pnpm build", "Compiled", 0)
	tr := filepath.Join(t.TempDir(), "ctx1.jsonl")
	if err := os.WriteFile(tr, []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runLearnBin(t, env, "learn", "extract", "-i", tr); code != 0 {
		t.Fatalf("extract: exit %d: %s", code, stderr)
	}
	out, stderr, code := runLearnBin(t, env, "learn", "context", "--project", repo, "--why")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	show, _, _ := runLearnBin(t, env, "learn", "show")
	if !strings.Contains(show, "lint: pnpm lint (") || !strings.Contains(show, "build: pnpm build (0.5, session:ctx1) (evidence only: ran successfully 1 time") {
		t.Errorf("show:\n%s", show)
	}
	prompt, receipt, _ := strings.Cut(out, "Context receipt:")
	if !strings.Contains(prompt, "- tests: pnpm test [session:ctx1]") || strings.Contains(prompt, "pnpm lint") {
		t.Errorf("prompt:\n%s", prompt)
	}
	for _, want := range []string{"tokens  - tests: pnpm test [session:ctx1]  (procedure, unconfirmed", "left out: stale: package.json has no script lint", "left out: evidence only: ran successfully 1 time in 1 session"} {
		if !strings.Contains(receipt, want) {
			t.Errorf("receipt lacks %q:\n%s", want, receipt)
		}
	}
}
