package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paige-dev/paige/internal/testenv"
)

// runBinHook runs the built paige with args, stdin and env, failing on a
// non-zero exit or any stdout.
func runBinHook(tb testing.TB, bin string, env []string, stdin string, args ...string) string {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = tb.TempDir() // no .env of the package directory is read
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := runBounded(tb, cmd); err != nil {
		tb.Fatalf("paige %v: %v\nstderr: %s", args, err, errb.String())
	}
	return out.String()
}

// BenchmarkHookSessionEndProcess measures `paige hook session-end` as
// Claude Code runs it: a new process, a new transcript each time, queued and
// a detached worker started (the worker is /bin/true here, so the numbers
// are the hook's own cost). Target: well under 100 ms.
func BenchmarkHookSessionEndProcess(b *testing.B) {
	bin := builtPaige(b)
	data, dir := b.TempDir(), b.TempDir()
	env := []string{"HOME=" + b.TempDir(), "DATA_DIR=" + data, "PAIGE_BIN=/bin/true", "PATH=" + testenv.ToolPath(b, "git")}
	inputs := make([]string, b.N)
	for i := range inputs {
		tr := filepath.Join(dir, fmt.Sprintf("t%d.jsonl", i))
		if err := os.WriteFile(tr, []byte("{}\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		inputs[i] = sessionEndJSON(tr)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out := runBinHook(b, bin, env, inputs[i], "hook", "session-end"); out != "" {
			b.Fatalf("stdout %q", out)
		}
	}
}

// BenchmarkHookPreToolUseProcess measures `paige hook pre-tool-use` denying
// a Write during an active coaching session (the SQLite lookup included).
func BenchmarkHookPreToolUseProcess(b *testing.B) {
	bin := builtPaige(b)
	data := b.TempDir()
	activeSessionDB(b, data, "/proj")
	env := []string{"HOME=" + b.TempDir(), "DATA_DIR=" + data, "PATH=" + testenv.ToolPath(b, "git")}
	in := preToolUseJSON(b, "/proj", "Bash", map[string]string{"command": "go test ./... > out.txt"})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out := runBinHook(b, bin, env, in, "hook", "pre-tool-use"); !strings.Contains(out, `"deny"`) {
			b.Fatalf("stdout %q, want a deny", out)
		}
	}
}
