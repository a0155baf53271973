package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paige-dev/paige/internal/llm/llmtest"
	"github.com/paige-dev/paige/internal/testenv"
)

// realClaude runs the real Claude Code CLI (PAIGE_TEST_CLAUDE) against a
// fake Messages API, with the repository's plugin loaded by --plugin-dir.
type realClaude struct {
	tb   testing.TB
	bin  string
	fake *llmtest.Server
	env  []string
	cwd  string
	home string
}

func newRealClaude(tb testing.TB, s *served, fake *llmtest.Server) *realClaude {
	tb.Helper()
	bin := testenv.Service(tb, "PAIGE_TEST_CLAUDE", "Claude Code CLI")
	paige := builtPaige(tb)
	home := tb.TempDir()
	port := s.base[strings.LastIndex(s.base, ":")+1:]
	env := []string{
		"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"PATH=" + filepath.Dir(paige) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"ANTHROPIC_BASE_URL=" + fake.URL(), "ANTHROPIC_API_KEY=sk-ant-test",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "PORT=" + port, "DATA_DIR=" + s.data,
		"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
	}
	return &realClaude{tb: tb, bin: bin, fake: fake, env: env, cwd: s.project, home: home}
}

// run runs `claude -p prompt` and returns its stream-json output.
func (c *realClaude) run(prompt string, extra ...string) string {
	c.tb.Helper()
	plugin, err := filepath.Abs("../../plugin")
	if err != nil {
		c.tb.Fatal(err)
	}
	args := append([]string{"-p", prompt, "--plugin-dir", plugin, "--output-format", "stream-json", "--verbose",
		"--max-turns", "20", "--model", "claude-sonnet-4-5"}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = c.cwd, c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	c.tb.Logf("claude stderr:\n%s", errb.String())
	if err != nil {
		c.tb.Fatalf("claude: %v\nstdout:\n%s", err, out.String())
	}
	return out.String()
}

// paige runs the built paige with Claude Code's environment (same HOME,
// DATA_DIR and seed as the hooks see).
func (c *realClaude) paige(args ...string) string {
	c.tb.Helper()
	return runBinHook(c.tb, builtPaige(c.tb), append(c.env, "PAIGE_OFFLINE=1"), "", args...)
}

// searchMemory runs `paige memory search` on the server's DATA_DIR.
func searchMemory(tb testing.TB, s *served, query string) string {
	tb.Helper()
	env := []string{"HOME=" + tb.TempDir(), "DATA_DIR=" + s.data, "PROJECT_DIR=" + s.project, "PAIGE_OFFLINE=1", "PATH=" + os.Getenv("PATH")}
	return runBinHook(tb, builtPaige(tb), env, "", "memory", "search", query)
}

// runClaudeCLI runs `claude args…` (a non-interactive subcommand) with
// c's environment and returns stdout, stderr and the exit code.
func runClaudeCLI(tb testing.TB, c *realClaude, args ...string) (string, string, int) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = c.cwd, c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatal(err)
	}
	return out.String(), errb.String(), code
}
